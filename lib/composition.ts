import "server-only";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { forgetInstallationFigures } from "@/lib/dashboard/dashboard-cache";
import { defineDuplicateTasks, getDuplicateService } from "@/lib/duplicates";
import { subscribeDuplicates } from "@/lib/duplicates/subscribe";
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
  installationLifecycle().on("installed", "dashboard", async ({ key }) => forgetInstallationFigures(key));
  defineDuplicateTasks();
  subscribeDuplicates(indexEvents(), getDuplicateService);
}
