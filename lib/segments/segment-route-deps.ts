import "server-only";
import { getAccessToken } from "@/lib/auth/access-token";
import { requireApiSession } from "@/lib/auth/session";
import { installationCaller } from "@/lib/platform/installation-call";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getSearchService } from "@/lib/search";
import { getStore } from "@/lib/store";
import { getTaskService } from "@/lib/tasks";
import type { SegmentRouteDeps } from "./segments-routes";

/** The deps of the segments routes: the proxy's, the session's user, the store, the installation's platform caller. */
export const segmentRouteDeps = (): SegmentRouteDeps => ({
  ...proxyDeps(),
  requireSession: requireApiSession,
  store: getStore,
  callerFor: (key) => installationCaller(key, getAccessToken),
  tasks: getTaskService,
  requestIndex: async (key) => {
    await getSearchService().requestSync(key);
  },
});
