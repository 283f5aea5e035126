import "server-only";
import { getAccessToken } from "@/lib/auth/access-token";
import { installationCaller } from "@/lib/platform/installation-call";
import { processValue } from "@/lib/process-state";
import { getStore } from "@/lib/store";
import { createDuplicateService, type DuplicateService } from "./duplicate-service";

/** The process's duplicate finder (lib/duplicates/duplicate-service.ts) over the app's store. */
export function getDuplicateService(): DuplicateService {
  return processValue("duplicates", () => createDuplicateService({ store: getStore, callerFor: (key) => installationCaller(key, getAccessToken) }));
}
