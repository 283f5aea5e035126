import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteContext } from "@/lib/http/route";
import { callPlatform } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor } from "@/lib/proxy/proxy";
import type { ShopRouteDeps } from "@/lib/shops/shops-routes";
import { MAX_IMPORT_FILES, OSS_PATH } from "./import-form";
import { MEDIA_EVENT_TYPES, type MediaImportAnswer, type MediaImportListAnswer } from "./media-api";
import { listMediaImports, recordMediaImport } from "./media-imports";

/**
 * `/api/media/imports` (contract: media-api.ts): `POST` sends a `fileList` to the platform's import
 * (§4.6) with the session's installation and keeps the task ids it returns with who started which
 * files when; `GET` lists them, latest first. The API has no task status to add.
 */

type Ctx = RouteContext<ShopRouteDeps>;

const importBody = z.strictObject({
  fileList: z
    .array(
      z.strictObject({
        file: z.string().trim().regex(OSS_PATH, "must be an object-storage file path oss://<bucket>/<object>"),
        eventType: z.enum(MEDIA_EVENT_TYPES).optional(),
      }),
    )
    .min(1, "at least one file")
    .max(MAX_IMPORT_FILES, `at most ${MAX_IMPORT_FILES} files`),
});

export const handleMediaImportList = apiRoute({ name: "media import list", op: "media.list", scope: "media", session: true }, async (ctx: Ctx) => {
  const answer: MediaImportListAnswer = { imports: await listMediaImports(await ctx.deps.store(), ctx.session) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

export const handleMediaImport = apiRoute({ name: "media import", op: "media.import", scope: "media", session: true }, async (ctx: Ctx) => {
  const body = importBody.safeParse((await readJsonBody(ctx.request)) ?? null);
  if (!body.success) {
    const fieldErrors = body.error.issues.map((issue) => ({ field: issue.path.join(".") || "body", message: issue.message }));
    throw new ApiError({ status: 422, code: "invalid_input", message: "the import is not valid", fieldErrors });
  }
  const files = body.data.fileList.map((f) => (f.eventType ? { file: f.file, eventType: f.eventType } : { file: f.file }));
  // A POST: the client does not retry it (a second import is harmless, §4.6, but makes a second task).
  const output = await callPlatform(operations["media.importData"], { body: { fileList: files } }, await callOptionsFor(ctx));
  const taskIds = (output.taskList ?? []).map(String);
  const entry = await recordMediaImport(await ctx.deps.store(), ctx.session, { startedBy: ctx.session.userId, startedByName: ctx.session.userName, files, taskIds }, (ctx.deps.now ?? Date.now)());
  const answer: MediaImportAnswer = { import: entry };
  return jsonResponse(201, JSON.stringify(answer), ctx.requestId);
});
