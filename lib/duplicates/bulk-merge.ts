import "server-only";
import type { Store } from "@/lib/store/database";
import type { TaskContext } from "@/lib/tasks/task-types";
import { clustersOf, pairsOf } from "./clusters";
import { dismissedPairs, mergeHistory, sharedKeys } from "./duplicate-store";
import { mergeDuplicate, type MergeDeps } from "./duplicate-merge";
import type { Rule } from "./match-keys";

/**
 * Bulk merge of one exact rule (a background task): every cluster that rule alone forms, each
 * source merged into the cluster's survivor (the oldest customer: the smallest id) through the same
 * checked merge as the queue's. The dry run is the same plan, shown before anything is merged.
 * A refused or skipped merge is written to the history with its reason and the task goes on.
 */

export type BulkPlanItem = { toId: string; fromIds: string[] };

export async function bulkPlan(store: Store, tenant: number, rule: Rule): Promise<BulkPlanItem[]> {
  const groups = (await sharedKeys(store, tenant)).filter((g) => g.rule === rule);
  return clustersOf(pairsOf(groups, await dismissedPairs(store, tenant))).map((c) => ({ toId: c.members[0]!, fromIds: c.members.slice(1) }));
}

export type BulkInput = { tenant: number; rule: Rule };
export type BulkCheckpoint = { merged: number; refused: number; skipped: number };
export type BulkResult = BulkCheckpoint & { planned: number };

export type BulkContext = Pick<TaskContext<BulkInput, BulkCheckpoint>, "input" | "checkpoint" | "progress" | "throwIfCancelled"> & { task: { id: string } };

export async function runBulkMerge(deps: Omit<MergeDeps, "tenant"> & { by: string | null }, ctx: BulkContext): Promise<BulkResult> {
  const { tenant, rule } = ctx.input;
  const mergeDeps: MergeDeps = { store: deps.store, tenant, call: deps.call, now: deps.now };
  // A resumed run skips the sources this task already tried (each is in the history under its id).
  const tried = new Set((await mergeHistory(deps.store, tenant, { limit: 100_000, taskId: ctx.task.id })).map((r) => r.fromId));
  const plan = (await bulkPlan(deps.store, tenant, rule)).flatMap((item) => item.fromIds.filter((f) => !tried.has(f)).map((fromId) => ({ fromId, toId: item.toId })));
  const counts: BulkCheckpoint = { ...(ctx.checkpoint ?? { merged: 0, refused: 0, skipped: 0 }) };
  const already = counts.merged + counts.refused + counts.skipped;
  const total = already + plan.length;
  await ctx.progress({ done: already, total, message: "merging", checkpoint: counts });
  for (const step of plan) {
    await ctx.throwIfCancelled();
    const answer = await mergeDuplicate(mergeDeps, { ...step, rule, by: deps.by, taskId: ctx.task.id });
    counts[answer.outcome]++;
    await ctx.progress({ done: counts.merged + counts.refused + counts.skipped, total, message: "merging", checkpoint: counts });
  }
  return { ...counts, planned: total };
}
