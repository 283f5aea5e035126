import "server-only";
import { auditRecorder } from "@/lib/audit";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getSearchService } from "@/lib/search";
import { env } from "@/lib/env";
import { getStore } from "@/lib/store";
import type { TenantRouteDeps } from "./tenant-routes";

/** How long a disconnect waits for background work in flight before its second sweep. */
const SETTLE_MS = 10_000;

export function tenantRouteDeps(): TenantRouteDeps {
  return {
    ...proxyDeps(),
    store: getStore,
    flushAudit: () => auditRecorder().flush(),
    appendFinal: async (draft) => {
      auditRecorder().record(draft);
      await auditRecorder().flush();
    },
    graceDays: env().installationDataGraceDays,
    settleJobs: () => Promise.race([getSearchService().idle(), new Promise<void>((resolve) => setTimeout(resolve, SETTLE_MS).unref?.())]),
  };
}
