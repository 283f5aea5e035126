import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps, type RouteInput } from "@/lib/http/route";
import type { ConsoleSession, SessionCheck } from "@/lib/auth/session";
import type { TaskService } from "./service";
import type { TaskAnswer, TaskListAnswer, TaskView } from "./task-api";
import { taskOperations } from "./task-operations";
import type { TaskRecord } from "./task-types";

/**
 * `/api/tasks…`: the session tenant's background tasks — the list, one task, cancel, the file.
 * A task of another installation is answered as not found, never told apart from a missing one.
 */

export type TaskRouteDeps = RouteDeps & { requireSession: (request: Request) => Promise<SessionCheck<ConsoleSession>>; tasks: () => TaskService };

type Ctx<N extends keyof typeof taskOperations> = RouteContext<TaskRouteDeps, RouteInput<(typeof taskOperations)[N]>>;

export function taskView(task: TaskRecord): TaskView {
  const { openAppId: _app, tenantId: _tenant, ...view } = task;
  return view;
}

const keyOf = (session: ConsoleSession) => ({ openAppId: session.openAppId, tenantId: session.tenantId });
const notFound = () => new ApiError({ status: 404, code: "not_found", message: "No such task." });

export const handleTaskList = apiRoute({ name: "task list", scope: "tasks", operation: taskOperations["tasks.list"] }, async (ctx: Ctx<"tasks.list">) => {
  const { kind, limit } = ctx.input.query;
  const kinds = kind === undefined ? undefined : Array.isArray(kind) ? kind : [kind];
  const tasks = await ctx.deps.tasks().list(keyOf(ctx.session), { ...(kinds ? { kinds } : {}), limit: limit ?? 20 });
  const answer: TaskListAnswer = { tasks: tasks.map(taskView) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

export const handleTaskGet = apiRoute({ name: "task", scope: "tasks", operation: taskOperations["tasks.get"] }, async (ctx: Ctx<"tasks.get">) => {
  const task = await ctx.deps.tasks().get(keyOf(ctx.session), ctx.input.params.id);
  if (!task) throw notFound();
  const answer: TaskAnswer = { task: taskView(task) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

export const handleTaskCancel = apiRoute({ name: "task cancel", scope: "tasks", operation: taskOperations["tasks.cancel"] }, async (ctx: Ctx<"tasks.cancel">) => {
  const task = await ctx.deps.tasks().cancel(keyOf(ctx.session), ctx.input.params.id, { userId: ctx.session.userId, name: ctx.session.userName });
  if (!task) throw notFound();
  ctx.fields.taskKind = task.kind;
  const answer: TaskAnswer = { task: taskView(task) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

/** A file name for `Content-Disposition`: the stored name kept to safe characters. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120) || "download";

export const handleTaskFile = apiRoute({ name: "task file", scope: "tasks", operation: taskOperations["tasks.file"] }, async (ctx: Ctx<"tasks.file">) => {
  const opened = await ctx.deps.tasks().openFile(keyOf(ctx.session), ctx.input.params.id);
  if (!opened) throw new ApiError({ status: 404, code: "not_found", message: "This task has no file to download (not finished, or no longer kept)." });
  return new Response(opened.body, {
    headers: {
      "content-type": opened.file.contentType,
      "content-length": String(opened.file.size),
      "content-disposition": `attachment; filename="${safeName(opened.file.name)}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": ctx.requestId,
    },
  });
});
