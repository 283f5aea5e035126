import "server-only";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { figuresChanged, figuresForgotten, FIGURES_TOPICS } from "@/lib/dashboard/figures-freshness";
import { processSlot } from "@/lib/process-state";
import { getSearchService } from "@/lib/search";
import { indexEvents } from "@/lib/search/index-events";
import { subscribeCustomerIndex } from "@/lib/search/webhooks";
import { webhookTopics } from "@/lib/webhooks/topics";

/**
 * The one place where features subscribe to webhook topics and installation lifecycle events, at
 * start-up (instrumentation.ts), so the receiver and auth import no feature. Idempotent.
 */
const registered = processSlot<boolean>("features-registered");

export function registerFeatures(): void {
  if (registered.get()) return;
  registered.set(true);
  subscribeCustomerIndex({ topics: webhookTopics(), lifecycle: installationLifecycle() }, getSearchService);
  // A (re)installed tenant starts afresh: never served the overview of before.
  installationLifecycle().on("installed", "dashboard", async ({ key }) => figuresForgotten(key));
  installationLifecycle().on("disconnected", "dashboard", async ({ key }) => figuresForgotten(key));
  // Changes the overview counts mark its stored figures stale (recomputed by the schedule).
  webhookTopics().on(FIGURES_TOPICS, "dashboard", async ({ delivery }) => figuresChanged({ openAppId: delivery.openAppId, tenantId: delivery.tenantId }));
  indexEvents().on("changed", "dashboard", async ({ key }) => figuresChanged(key));
  indexEvents().on("removed", "dashboard", async ({ key }) => figuresChanged(key));
}
