import "server-only";
import { apiRoute, jsonResponse, type RouteInput, type RouteContext } from "@/lib/http/route";
import { callPlatform } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor } from "@/lib/proxy/proxy";
import type { ShopRouteDeps } from "@/lib/shops/shops-routes";
import type { MediaImportAnswer, MediaImportListAnswer } from "./media-api";
import { listMediaImports, recordMediaImport } from "./media-imports";
import { mediaOperations } from "./media-operations";

/**
 * `/api/media/imports` (contract: media-api.ts): `POST` sends a `fileList` to the platform's import
 * (§4.6) with the session's installation and keeps the task ids it returns with who started which
 * files when; `GET` lists them, latest first. The API has no task status to add.
 */

type Ctx<N extends keyof typeof mediaOperations> = RouteContext<ShopRouteDeps, RouteInput<(typeof mediaOperations)[N]>>;

export const handleMediaImportList = apiRoute({ name: "media import list", op: "media.list", scope: "media", operation: mediaOperations["media.imports"] }, async (ctx: Ctx<"media.imports">) => {
  const answer: MediaImportListAnswer = { imports: await listMediaImports(await ctx.deps.store(), ctx.session) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

export const handleMediaImport = apiRoute({ name: "media import", scope: "media", operation: mediaOperations["media.import"] }, async (ctx: Ctx<"media.import">) => {
  const files = ctx.input.body.fileList.map((f) => (f.eventType ? { file: f.file, eventType: f.eventType } : { file: f.file }));
  // A POST: the client does not retry it (a second import is harmless, §4.6, but makes a second task).
  const output = await callPlatform(operations["media.importData"], { body: { fileList: files } }, await callOptionsFor(ctx));
  const taskIds = (output.taskList ?? []).map(String);
  const entry = await recordMediaImport(await ctx.deps.store(), ctx.session, { startedBy: ctx.session.userId, startedByName: ctx.session.userName, files, taskIds }, (ctx.deps.now ?? Date.now)());
  const answer: MediaImportAnswer = { import: entry };
  return jsonResponse(201, JSON.stringify(answer), ctx.requestId);
});
