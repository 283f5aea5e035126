import "server-only";
import { auditRecorder } from "@/lib/audit";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { forgetInstallationFigures } from "@/lib/dashboard/dashboard-cache";
import { processSlot } from "@/lib/process-state";
import { setAuditSink } from "@/lib/http/audit-hook";
import { getSearchService } from "@/lib/search";
import { getStore } from "@/lib/store";
import { markInstallationEnded } from "@/lib/tenant-data/disconnect";
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
}
