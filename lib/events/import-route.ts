import "server-only";
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteContext, type RouteInput } from "@/lib/http/route";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { translate } from "@/lib/i18n/messages";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import type { TaskStartAnswer } from "@/lib/tasks/task-api";
import type { TaskRouteDeps } from "@/lib/tasks/task-routes";
import { taskView } from "@/lib/tasks/task-routes";
import type { TaskService } from "@/lib/tasks/service";
import { TaskRefused, type TaskDefinition } from "@/lib/tasks/task-types";
import { rowProblemsText } from "./event-problem-text";
import { EVENT_IMPORT_TASK, UPLOAD_CONTENT_TYPE } from "./import-api";
import { importOperations } from "./import-operations";
import { classifyPlatformError, sendToPlatform } from "./import-send";
import { runEventImport, type EventImportCheckpoint, type EventImportInput, type EventImportResult } from "./import-task";
import { deleteUpload, hasUpload, openUpload, storeUpload, sweepUploads } from "./import-uploads";

/**
 * The /events CSV import on the app's task queue (lib/tasks): `POST /api/events/import` stores the
 * file (import-uploads.ts) and starts the task, one at a time per tenant (a second start answers
 * the running one); the task sends the rows to the platform with the installation's token
 * (import-task.ts), so it goes on when the tab is closed and resumes after a restart; every staff
 * member follows it, stops it and downloads its failure report from the tasks panel.
 */

/** How long the failure report stays downloadable: long enough to fix the rows after a weekend. */
export const REPORT_TTL_MS = 7 * 24 * 3600_000;

export type ImportTaskDeps = {
  store: () => Promise<Store>;
  /** The platform caller of an installation, its requests aborted with `signal` (a cancelled task). */
  callerFor: (key: InstallationKey, signal: AbortSignal) => PlatformCall;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function parseInput(raw: unknown): EventImportInput {
  const o = (raw ?? {}) as Record<string, unknown>;
  if (typeof o.upload !== "string" || !UUID.test(o.upload)) throw new Error("the import's input names no upload");
  if (typeof o.name !== "string" || typeof o.size !== "number") throw new Error("the import's input names no file");
  if (o.rule !== "date" && o.rule !== "md5") throw new Error("the import's duplicate rule is not known");
  const locale = LOCALES.includes(o.locale as Locale) ? (o.locale as Locale) : "en";
  return { upload: o.upload, name: o.name, size: o.size, rule: o.rule, locale };
}

export function eventImportTask(deps: ImportTaskDeps): TaskDefinition<EventImportInput, EventImportResult, EventImportCheckpoint> {
  return {
    kind: EVENT_IMPORT_TASK,
    exclusive: "tenant",
    fileTtlMs: REPORT_TTL_MS,
    parseInput,
    run: async (ctx) => {
      const store = await deps.store();
      const locale = ctx.input.locale as Locale;
      const t = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) => translate(locale, key, values);
      if (!(await hasUpload(store, ctx.key, ctx.input.upload))) throw new Error(t("events.uploadGone"));
      const result = await runEventImport(ctx, {
        open: () => openUpload(store, ctx.key, ctx.input.upload),
        send: sendToPlatform(deps.callerFor(ctx.key, ctx.signal)),
        classify: classifyPlatformError,
        describe: (problems) => rowProblemsText(problems, t),
        labels: { row: t("events.reportRow"), reason: t("events.reportReason") },
        headerError: (problems) => new TaskRefused(t("events.headerRefused", { columns: problems.join(", ") })),
        message: (at) => t("events.taskProgress", { sent: at.sent, failed: at.failed }),
      });
      // A file broken midway (a quote never closed): the rows before it were sent, and staff are told where it stopped.
      if (result.sourceError) {
        const counts = t("events.taskProgress", { sent: result.sent, failed: result.failed });
        await ctx.progress({ done: result.bytesRead, total: ctx.input.size, message: `${counts} · ${t("events.sourceError", { message: result.sourceError })}` });
      }
      return result;
    },
    // The file is let go with its task: done, stopped, or failed after its last try.
    ended: async (task) => {
      const upload = (task.input as { upload?: unknown } | null)?.upload;
      if (typeof upload === "string") await deleteUpload(await deps.store(), { openAppId: task.openAppId, tenantId: task.tenantId }, upload);
    },
  };
}

/** Drops uploads that no import holds any more (an instance that died between storing and starting). */
export async function sweepImportUploads(store: Store, tasks: Pick<TaskService, "active">, now: number): Promise<number> {
  return sweepUploads(store, now, async (key) => {
    const upload = ((await tasks.active(key, EVENT_IMPORT_TASK))?.input as { upload?: unknown } | null | undefined)?.upload;
    return new Set(typeof upload === "string" ? [upload] : []);
  });
}

export type ImportRouteDeps = TaskRouteDeps & { store: () => Promise<Store> };

type Ctx = RouteContext<ImportRouteDeps, RouteInput<(typeof importOperations)["events.import"]>>;

const answer = (ctx: Ctx, result: TaskStartAnswer) => {
  Object.assign(ctx.fields, { taskId: result.task.id, started: result.started });
  return jsonResponse(result.started ? 202 : 200, JSON.stringify(result), ctx.requestId);
};

export const handleEventImportStart = apiRoute({ name: "event import", operation: importOperations["events.import"] }, async (ctx: Ctx) => {
  const key = { openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId };
  const actor = { userId: ctx.session.userId, name: ctx.session.userName };
  const tasks = ctx.deps.tasks();
  // A double click, or a second member: the running import is the answer, its file not read again.
  const running = await tasks.active(key, EVENT_IMPORT_TASK);
  if (running) return answer(ctx, { task: taskView(running), started: false });
  const type = (ctx.request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== UPLOAD_CONTENT_TYPE) throw new ApiError({ status: 415, code: "unsupported_media_type", message: `the body must be the CSV file (Content-Type: ${UPLOAD_CONTENT_TYPE})` });
  const declared = ctx.request.headers.get("content-length");
  const store = await ctx.deps.store();
  const upload = randomUUID();
  const { size } = await storeUpload(store, key, upload, ctx.request.body, declared === null ? {} : { declaredBytes: Number(declared) });
  ctx.fields.bytes = size;
  const { name, rule, locale } = ctx.input.query;
  let started: { task: Parameters<typeof taskView>[0]; started: boolean };
  try {
    started = await tasks.start(key, EVENT_IMPORT_TASK, { upload, name, size, rule, locale } satisfies EventImportInput, actor);
  } catch (error) {
    await deleteUpload(store, key, upload);
    throw error;
  }
  // Another start came between the check and this one: its import runs, this file is not needed.
  if (!started.started) await deleteUpload(store, key, upload);
  return answer(ctx, { task: taskView(started.task), started: started.started });
});
