import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import type { TaskDefinition } from "@/lib/tasks/task-types";
import { runBulkMerge, type BulkCheckpoint, type BulkInput, type BulkResult } from "./bulk-merge";
import { scanTenant, type BirthdayReader, type ScanCheckpoint, type ScanInput, type ScanResult } from "./duplicate-scan";

/** The finder's background tasks (lib/tasks): the whole-tenant pass and the bulk merge of one rule, one of each per tenant at a time. */
export const SCAN_TASK = "duplicates.scan";
export const BULK_TASK = "duplicates.bulk";

export type DuplicateTaskDeps = {
  store: () => Promise<Store>;
  callerFor: (key: InstallationKey) => PlatformCall;
  birthdaysFor: (key: InstallationKey) => BirthdayReader;
  now?: () => number;
};

export function duplicateTaskDefinitions(deps: DuplicateTaskDeps): [TaskDefinition<ScanInput, ScanResult, ScanCheckpoint>, TaskDefinition<BulkInput, BulkResult, BulkCheckpoint>] {
  return [
    {
      kind: SCAN_TASK,
      exclusive: "tenant",
      run: async (ctx) => scanTenant({ store: await deps.store(), birthdays: deps.birthdaysFor(ctx.key) }, ctx),
    },
    {
      kind: BULK_TASK,
      exclusive: "tenant",
      // A merge the platform refuses is recorded and the task goes on: a throw here is the store or the network, tried again from the checkpoint.
      run: async (ctx) => runBulkMerge({ store: await deps.store(), call: deps.callerFor(ctx.key), now: deps.now ?? Date.now, by: ctx.task.startedBy.name || ctx.task.startedBy.userId }, ctx),
    },
  ];
}
