import { describe, expect, it } from "vitest";
import { installationLifecycle } from "./auth/lifecycle";
import { registerFeatures } from "./composition";
import { installationCacheKey, sharedDashboardCache } from "./dashboard/dashboard-cache";
import { CUSTOMER_INDEX_TOPICS } from "./search/webhooks";
import { webhookTopics } from "./webhooks/topics";

describe("start-up composition", () => {
  it("subscribes the customer index to its webhook topics once, however often it runs", () => {
    registerFeatures();
    registerFeatures();
    expect(webhookTopics().subscribers()).toEqual(CUSTOMER_INDEX_TOPICS.map((topic) => ({ topic, feature: "customer-index" })));
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
