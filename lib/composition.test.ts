import { describe, expect, it } from "vitest";
import { installationLifecycle } from "./auth/lifecycle";
import { registerFeatures } from "./composition";
import { installationCacheKey, sharedDashboardCache } from "./dashboard/dashboard-cache";
import { CUSTOMER_INDEX_TOPICS } from "./search/webhooks";
import { webhookTopics } from "./webhooks/topics";
import { FACTS_TOPICS } from "./segments/facts-subscriber";

describe("start-up composition", () => {
  it("subscribes the customer index to its webhook topics once, however often it runs", () => {
    registerFeatures();
    registerFeatures();
    const subscribers = webhookTopics().subscribers();
    expect(subscribers.filter((s) => s.feature === "customer-index")).toEqual(CUSTOMER_INDEX_TOPICS.map((topic) => ({ topic, feature: "customer-index" })));
    // Segments refresh a customer's statistics on order and event deliveries.
    expect(subscribers.filter((s) => s.feature === "segments")).toEqual(FACTS_TOPICS.map((topic) => ({ topic, feature: "segments" })));
  });

  it("a (re)install forgets the tenant's cached overview: its figures are computed anew", async () => {
    registerFeatures();
    const key = { openAppId: "oa-composed", tenantId: "9007199254740993123" };
    const figures = sharedDashboardCache<string>();
    await figures.get(installationCacheKey(key), async () => "figures of before");
    await installationLifecycle().publish({ type: "installed", key });
    expect(figures.peek(installationCacheKey(key))).toBeUndefined();
  });
});
