import "server-only";
import { auditRecorder } from "@/lib/audit";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { forgetInstallationFigures } from "@/lib/dashboard/dashboard-cache";
import { processSlot } from "@/lib/process-state";
import { setAuditSink } from "@/lib/http/audit-hook";
import { getSearchService } from "@/lib/search";
import { getStore } from "@/lib/store";
import { sweepAuditLog } from "@/lib/audit/audit-store";
import { env } from "@/lib/env";
import { defineSchedule } from "@/lib/tasks";
import { markInstallationEnded, sweepEndedInstallations } from "@/lib/tenant-data/disconnect";
import { tenantRouteDeps } from "@/lib/tenant-data/tenant-route-deps";
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
  // The audit log: every write of the route wrapper, the proxy and the sign-in flow.
  setAuditSink((draft) => auditRecorder().record(draft));
  // The platform refused the refresh token for good: the installation is marked, and its data goes after the grace period.
  installationLifecycle().on("disconnected", "tenant-data", async ({ key }) => markInstallationEnded(await getStore(), key, "refresh_refused", "the platform refused the refresh token"));
  // A disconnected or expired installation: nothing the process keeps of it stays.
  installationLifecycle().on("removed", "dashboard", async ({ key }) => forgetInstallationFigures(key));
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
}

const DAY_MS = 86_400_000;
