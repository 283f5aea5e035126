import "server-only";
import { z } from "zod";
import { answer, defineOperations, int, nullableText } from "@/lib/http/define-operations";
import { intParam } from "@/lib/platform/schema-helpers";
import type { TaskAnswer, TaskListAnswer } from "./task-api";

/** The background task routes with their schemas (the list: lib/http/app-routes.ts). */

const actor = z.object({ userId: z.string(), name: z.string() });
export const taskSchema = z.object({
  id: z.string(),
  kind: z.string(),
  state: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  input: z.unknown(),
  progress: z.object({ done: int, total: int.nullable(), message: nullableText }),
  result: z.unknown(),
  error: nullableText,
  startedBy: actor,
  cancelledBy: actor.nullable(),
  createdAt: int,
  startedAt: int.nullable(),
  updatedAt: int,
  finishedAt: int.nullable(),
  cancelRequested: z.boolean(),
  attempts: int,
  file: z.object({ name: z.string(), contentType: z.string(), size: int, expiresAt: int }).nullable(),
});

const taskKind = z.string().regex(/^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)*$/, "must be a task kind such as customers.export").max(64);
const taskId = z.strictObject({ id: z.uuid("must be a task id") });

export const taskOperations = defineOperations({
  "tasks.list": {
    summary: "The installation's background tasks, latest first (every staff member sees the same)",
    query: z.strictObject({
      kind: z.union([taskKind, z.array(taskKind).max(10)]).optional(),
      limit: intParam(1, 100).optional(),
    }),
    output: answer<TaskListAnswer>(z.object({ tasks: z.array(taskSchema) })),
  },
  "tasks.get": { summary: "One background task: state, progress, result, file", params: taskId, output: answer<TaskAnswer>(z.object({ task: taskSchema })) },
  "tasks.cancel": { summary: "Asks a task to stop (a queued one ends at once; a running one at its next step)", params: taskId, output: answer<TaskAnswer>(z.object({ task: taskSchema })) },
  "tasks.file": { summary: "The task's file (an export) while it is kept", params: taskId },
});
