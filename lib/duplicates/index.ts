import "server-only";
import { getAccessToken } from "@/lib/auth/access-token";
import { installationCaller } from "@/lib/platform/installation-call";
import { processValue } from "@/lib/process-state";
import { getStore } from "@/lib/store";
import { defineTask, getTaskService } from "@/lib/tasks";
import { createDuplicateService, platformBirthdays, type DuplicateService } from "./duplicate-service";
import { duplicateTaskDefinitions } from "./duplicate-tasks";

const callerFor = (key: Parameters<typeof getAccessToken>[0]) => installationCaller(key, getAccessToken);

/** The process's duplicate finder (lib/duplicates/duplicate-service.ts) over the app's store and task service. */
export function getDuplicateService(): DuplicateService {
  return processValue("duplicates", () => createDuplicateService({ store: getStore, callerFor, tasks: getTaskService }));
}

/** The finder's background tasks, defined at start-up (lib/composition.ts). */
export function defineDuplicateTasks(): void {
  const [scan, bulk] = duplicateTaskDefinitions({ store: getStore, callerFor, birthdaysFor: (key) => platformBirthdays(callerFor(key)) });
  defineTask(scan);
  defineTask(bulk);
}
