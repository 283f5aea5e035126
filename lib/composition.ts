import "server-only";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { forgetInstallationFigures } from "@/lib/dashboard/dashboard-cache";
import { getSearchService } from "@/lib/search";
import { subscribeCustomerIndex } from "@/lib/search/webhooks";
import { webhookTopics } from "@/lib/webhooks/topics";

/**
 * The one place where features subscribe to webhook topics and installation lifecycle events, at
 * start-up (instrumentation.ts), so the receiver and auth import no feature. Idempotent.
 */
const DONE = Symbol.for("engage-console.features-registered");

export function registerFeatures(): void {
  const holder = globalThis as { [DONE]?: boolean };
  if (holder[DONE]) return;
  holder[DONE] = true;
  subscribeCustomerIndex({ topics: webhookTopics(), lifecycle: installationLifecycle() }, getSearchService);
  // A (re)installed tenant starts afresh: never served the overview of before.
  installationLifecycle().on("installed", "dashboard", async ({ key }) => forgetInstallationFigures(key));
}
