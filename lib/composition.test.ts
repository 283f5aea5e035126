import { describe, expect, it } from "vitest";
import { registerFeatures } from "./composition";
import { CUSTOMER_INDEX_TOPICS } from "./search/webhooks";
import { webhookTopics } from "./webhooks/topics";

describe("start-up composition", () => {
  it("subscribes the customer index to its webhook topics once, however often it runs", () => {
    registerFeatures();
    registerFeatures();
    expect(webhookTopics().subscribers()).toEqual(CUSTOMER_INDEX_TOPICS.map((topic) => ({ topic, feature: "customer-index" })));
  });
});
