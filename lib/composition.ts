import "server-only";
import { auditRecorder } from "@/lib/audit";
import { getAccessToken } from "@/lib/auth/access-token";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { customerExportTask } from "@/lib/customers/customer-export-route";
import { figuresChanged, figuresForgotten, FIGURES_TOPICS } from "@/lib/dashboard/figures-freshness";
import { figuresSchedule, figuresTask, SCHEDULE_ACTOR } from "@/lib/dashboard/figures-jobs";
import { FIGURES_TASK } from "@/lib/dashboard/figures-task";
import { installationCaller } from "@/lib/platform/installation-call";
import { defineDuplicateTasks, getDuplicateService } from "@/lib/duplicates";
import { eventImportTask, sweepImportUploads } from "@/lib/events/import-route";
import { subscribeDuplicates } from "@/lib/duplicates/subscribe";
import { processSlot } from "@/lib/process-state";
import { setAuditSink } from "@/lib/http/audit-hook";
import { getSearchService } from "@/lib/search";
import { getStore } from "@/lib/store";
import { sweepAuditLog } from "@/lib/audit/audit-store";
import { env } from "@/lib/env";
import { markInstallationEnded, subscribeUninstall, sweepEndedInstallations } from "@/lib/tenant-data/disconnect";
import { tenantRouteDeps } from "@/lib/tenant-data/tenant-route-deps";
import type { InstallationKey } from "@/lib/store/installations";
import { defineSchedule, defineTask, getTaskService } from "@/lib/tasks";
import { indexEvents } from "@/lib/search/index-events";
import { subscribeCustomerIndex } from "@/lib/search/webhooks";
import { subscribeCustomerFacts } from "@/lib/segments/facts-subscriber";
import { segmentSyncTask, syncDueSegments } from "@/lib/segments/segment-task";
import { logger } from "@/lib/log";
import { webhookTopics } from "@/lib/webhooks/topics";

/**
 * The one place where features subscribe to webhook topics and installation lifecycle events and
 * define their background tasks, at start-up (instrumentation.ts), so the receiver, auth and the
 * task runner import no feature. Idempotent.
 */
const registered = processSlot<boolean>("features-registered");

export function registerFeatures(): void {
  if (registered.get()) return;
  registered.set(true);
  subscribeCustomerIndex({ topics: webhookTopics(), lifecycle: installationLifecycle() }, getSearchService);
  // The audit log: every write of the route wrapper, the proxy and the sign-in flow.
  setAuditSink((draft) => auditRecorder().record(draft));
  // The platform refused the refresh token for good: the installation is marked, and its data goes after the grace period.
  installationLifecycle().on("disconnected", "tenant-data", async ({ key }) => markInstallationEnded(await getStore(), key, "refresh_refused", "the platform refused the refresh token"));
  subscribeUninstall(webhookTopics(), getStore);
  // A disconnected or expired installation: nothing the process keeps of it stays.
  installationLifecycle().on("removed", "dashboard", async ({ key }) => figuresForgotten(key));
  installationLifecycle().on("removed", "customer-index", async ({ key }) => getSearchService().remove(key));
  // Daily: audit entries past their tenant's retention, and dead installations past their grace period.
  defineSchedule({ name: "audit.retention", everyMs: DAY_MS, run: async (now) => void (await sweepAuditLog(await getStore(), now)) });
  defineSchedule({
    name: "installations.deadSweep",
    everyMs: DAY_MS,
    run: async (now) => {
      const deps = tenantRouteDeps();
      await sweepEndedInstallations({ store: await getStore(), flushAudit: deps.flushAudit, settleJobs: deps.settleJobs, now: () => now }, env().installationDataGraceDays);
    },
  });
  // Background tasks call the platform with the installation's token, their requests aborted on cancel.
  const callerFor = (key: InstallationKey, signal: AbortSignal) => installationCaller(key, getAccessToken, { signal });
  defineTask(customerExportTask(callerFor, (key, request, signal) => getSearchService().ids(key, request, signal)));
  // The /events CSV import: the file in the store, its rows sent by the task; files nothing holds go within a day.
  defineTask(eventImportTask({ store: getStore, callerFor }));
  defineSchedule({ name: "events.uploadSweep", everyMs: 3600_000, run: async (now) => void (await sweepImportUploads(await getStore(), getTaskService(), now)) });
  defineTask(figuresTask({ callerFor, store: getStore }));
  defineSchedule(figuresSchedule({ store: getStore, start: (key, kind, input, actor) => getTaskService().start(key, kind, input, actor) }));
  // A (re)installed tenant starts afresh: never served the overview of before; its figures are computed at once.
  installationLifecycle().on("installed", "dashboard", async ({ key }) => {
    await figuresForgotten(key);
    await getTaskService().start(key, FIGURES_TASK, {}, SCHEDULE_ACTOR);
  });
  installationLifecycle().on("disconnected", "dashboard", async ({ key }) => figuresForgotten(key));
  // Changes the overview counts mark its stored figures stale (recomputed by the schedule).
  webhookTopics().on(FIGURES_TOPICS, "dashboard", async ({ delivery }) => figuresChanged({ openAppId: delivery.openAppId, tenantId: delivery.tenantId }));
  indexEvents().on("changed", "dashboard", async ({ key }) => figuresChanged(key));
  indexEvents().on("removed", "dashboard", async ({ key }) => figuresChanged(key));
  // Segments keep the customers' §2.7 statistics beside the index.
  subscribeCustomerFacts(
    { events: indexEvents(), topics: webhookTopics() },
    { store: getStore, callerFor: (key) => installationCaller(key, getAccessToken), log: logger().child({ scope: "segments" }) },
  );
  // A segment's sync into a list is a background task; segments kept in step are synced when due.
  defineTask(segmentSyncTask({ store: getStore, callerFor: (key) => installationCaller(key, getAccessToken) }));
  defineSchedule({ name: "segments.sync-due", everyMs: 5 * 60_000, run: async (now) => void (await syncDueSegments(await getStore(), getTaskService(), now)) });
  // Duplicates: the whole-tenant scan and the bulk merge as tasks, the queue kept fresh by index events.
  defineDuplicateTasks();
  subscribeDuplicates(indexEvents(), getDuplicateService);
}

const DAY_MS = 86_400_000;
