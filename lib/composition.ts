import "server-only";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { forgetInstallationFigures } from "@/lib/dashboard/dashboard-cache";
import { processSlot } from "@/lib/process-state";
import { getSearchService } from "@/lib/search";
import { subscribeCustomerIndex } from "@/lib/search/webhooks";
import { indexEvents } from "@/lib/search/index-events";
import { subscribeCustomerFacts } from "@/lib/segments/facts-subscriber";
import { segmentSyncTask, syncDueSegments } from "@/lib/segments/segment-task";
import { defineSchedule, defineTask, getTaskService } from "@/lib/tasks";
import { getAccessToken } from "@/lib/auth/access-token";
import { installationCaller } from "@/lib/platform/installation-call";
import { getStore } from "@/lib/store";
import { logger } from "@/lib/log";
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
  // Segments keep the customers' §2.7 statistics beside the index.
  subscribeCustomerFacts(
    { events: indexEvents(), topics: webhookTopics() },
    { store: getStore, callerFor: (key) => installationCaller(key, getAccessToken), log: logger().child({ scope: "segments" }) },
  );
  // A segment's sync into a list is a background task; segments kept in step are synced when due.
  defineTask(segmentSyncTask({ store: getStore, callerFor: (key) => installationCaller(key, getAccessToken) }));
  defineSchedule({ name: "segments.sync-due", everyMs: 5 * 60_000, run: async (now) => void (await syncDueSegments(await getStore(), getTaskService(), now)) });
  // A (re)installed tenant starts afresh: never served the overview of before.
  installationLifecycle().on("installed", "dashboard", async ({ key }) => forgetInstallationFigures(key));
}
