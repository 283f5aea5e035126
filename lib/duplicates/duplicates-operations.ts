import "server-only";
import { z } from "zod";
import { answer, defineOperations, int, nullableText } from "@/lib/http/define-operations";
import { isPlatformId } from "@/lib/platform/ids";
import { intParam } from "@/lib/platform/schema-helpers";
import type { TaskView } from "@/lib/tasks/task-api";
import { taskSchema } from "@/lib/tasks/task-operations";
import type { BulkPlanItem } from "./bulk-merge";
import type { MergeAnswer } from "./duplicate-merge";
import type { MergeRecord } from "./duplicate-store";
import { EXACT_RULES, RULES } from "./match-keys";
import type { DuplicateCounts, DuplicateQueue } from "./types";

/** The duplicates routes with their schemas (the list: lib/http/app-routes.ts). */

const customerId = z.string().refine(isPlatformId, "must be a customer id (digits)");
const rule = z.enum(RULES);
const exactRule = z.enum(EXACT_RULES as [string, ...string[]]).refine((r) => (EXACT_RULES as readonly string[]).includes(r), "must be an exact rule (identity, mobile, email)");
const counts = z.object({ clusters: int, pairs: int });
const pair = z.object({ a: z.string(), b: z.string(), rules: z.array(rule), score: int });
const member = z.object({ id: z.string(), displayName: nullableText, mobile: nullableText, email: nullableText });
const cluster = z.object({ id: z.string(), score: int, rules: z.array(rule), pairs: z.array(pair), members: z.array(member) });
const mergeRecord = z.object({
  id: z.string(),
  fromId: z.string(),
  toId: z.string(),
  rule: rule.nullable(),
  outcome: z.enum(["merged", "refused", "skipped"]),
  reason: nullableText,
  identitiesRestored: int,
  taskId: nullableText,
  mergedBy: nullableText,
  mergedAt: int,
});
const started = answer<{ task: TaskView; started: boolean }>(z.object({ task: taskSchema, started: z.boolean() }));

export const duplicatesOperations = defineOperations({
  "duplicates.queue": {
    summary: "Likely duplicate customers of the session tenant, in clusters (A=B, B=C), strongest first, with the rules that found them",
    query: z.strictObject({ rule: rule.optional(), limit: intParam(1, 100).optional(), offset: intParam(0, 1_000_000).optional() }),
    output: answer<DuplicateQueue>(z.object({ clusters: z.array(cluster), total: int, counts, scan: taskSchema.nullable() })),
  },
  "duplicates.counts": { summary: "How many clusters and pairs wait for review (navigation, overview)", output: answer<DuplicateCounts>(counts) },
  "duplicates.merge": {
    summary: "Merge one customer into another (§4.1) after re-reading both; refused when they no longer match by the rule; the survivor keeps every identity",
    body: z.strictObject({ fromId: customerId, toId: customerId, rule: rule.nullable().optional() }).refine((b) => b.fromId !== b.toId, { message: "must differ from fromId", path: ["toId"] }),
    output: answer<MergeAnswer>(z.object({ outcome: z.enum(["merged", "refused", "skipped"]), fromId: z.string(), toId: z.string(), reason: nullableText, identitiesRestored: int })),
  },
  "duplicates.dismiss": {
    summary: "Not the same person: the pair is never suggested again (kept across re-scans)",
    body: z.strictObject({ a: customerId, b: customerId }).refine((b) => b.a !== b.b, { message: "must differ from a", path: ["b"] }),
    output: answer<{ dismissed: true }>(z.object({ dismissed: z.literal(true) })),
  },
  "duplicates.scan": { summary: "Start the whole-tenant pass again as a background task (one at a time per tenant: a running one is answered)", statuses: [202], output: started },
  "duplicates.plan": {
    summary: "Dry run of a bulk merge: every cluster of one exact rule with its survivor (the oldest customer) and the customers merged into it",
    query: z.strictObject({ rule: exactRule }),
    output: answer<{ plan: BulkPlanItem[] }>(z.object({ plan: z.array(z.object({ toId: z.string(), fromIds: z.array(z.string()) })) })),
  },
  "duplicates.bulk": { summary: "Start the bulk merge of one exact rule as a background task (one at a time per tenant); progress and stop through the tasks routes", statuses: [202], body: z.strictObject({ rule: exactRule }), output: started },
  "duplicates.history": {
    summary: "What was merged into what (and what was refused or skipped, with the reason), newest first",
    query: z.strictObject({ taskId: z.string().max(64).optional(), limit: intParam(1, 500).optional() }),
    output: answer<{ merges: MergeRecord[] }>(z.object({ merges: z.array(mergeRecord) })),
  },
});
