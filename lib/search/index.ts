import "server-only";
import { getAccessToken } from "@/lib/auth/access-token";
import { env } from "@/lib/env";
import { getJobQueue } from "@/lib/jobs";
import { logger } from "@/lib/log";
import { installationCaller } from "@/lib/platform/installation-call";
import { processValue } from "@/lib/process-state";
import { getStore } from "@/lib/store";
import { createSearchService, type SearchService } from "./service";

/** The process's customer index service (lib/search/service.ts) over the app's store and job queue. */
export function getSearchService(): SearchService {
  return processValue("customer-index", () =>
    createSearchService({
      store: getStore,
      queue: getJobQueue,
      callerFor: (key) => installationCaller(key, getAccessToken),
      enabled: env().customerIndexSync,
      log: logger().child({ scope: "customer-index" }),
    }),
  );
}
