import "server-only";
import { getAccessToken } from "@/lib/auth/access-token";
import { env } from "@/lib/env";
import { getJobQueue } from "@/lib/jobs";
import { logger } from "@/lib/log";
import { callPlatform } from "@/lib/platform/client";
import { operations, type OperationName } from "@/lib/platform/operations";
import { getStore } from "@/lib/store";
import { createSearchService, type SearchService } from "./service";
import type { PlatformCall } from "./sync";
import type { InstallationKey } from "./tenant-state";

/** A platform caller for background work: the installation's token, refreshed once when refused (like the proxy). */
export function installationCaller(key: InstallationKey): PlatformCall {
  return ((name: OperationName, input: unknown) =>
    getAccessToken(key).then(({ accessToken, apiUrl }) =>
      callPlatform(operations[name], input as never, {
        apiUrl,
        accessToken,
        getToken: async ({ forceRefresh, rejectedToken }) => (await getAccessToken(key, { forceRefresh, rejectedAccessToken: rejectedToken })).accessToken,
      }),
    )) as PlatformCall;
}

let service: SearchService | undefined;

/** The process's customer index service (lib/search/service.ts) over the app's store and job queue. */
export function getSearchService(): SearchService {
  service ??= createSearchService({
    store: getStore,
    queue: getJobQueue,
    callerFor: installationCaller,
    enabled: env().customerIndexSync,
    log: logger().child({ scope: "customer-index" }),
  });
  return service;
}
