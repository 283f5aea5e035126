import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps, type RouteInput } from "@/lib/http/route";
import { exportFileName } from "@/lib/csv";
import { runBounded } from "@/lib/batch/bulk-run";
import { addTagsInput } from "@/lib/customers/bulk-tags";
import { CUSTOMER_COLUMNS, type CustomerColumn } from "@/lib/customers/customer-columns";
import { startCsvExport, type ExportRow, type FetchPage } from "@/lib/customers/customer-export";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { patient } from "@/lib/search/sync";
import { countIndexed } from "@/lib/search/index-store";
import { findTenant } from "@/lib/search/tenant-state";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { matchesEveryone } from "./segment-conditions";
import { countSegment, previewSegment, segmentIds, segmentIdsAfter } from "./segment-query";
import { startSync, type TaskStarter } from "./segment-task";
import { createSegment, deleteSegment, getSegment, listRuns, listSegments, updateSegment } from "./segment-store";
import { segmentsOperations } from "./segments-operations";

/**
 * `/api/segments…`: a tenant's saved segments, their live count and preview over the people index,
 * and the actions on a segment (sync into a list, tag everyone, export). The session names the
 * installation; every store read and write names it too.
 */

export type SegmentRouteDeps = RouteDeps & {
  store: () => Promise<Store>;
  callerFor: (key: InstallationKey) => PlatformCall;
  /** Starts the tenant's index when a segment is used before it (the search service's `requestSync`). */
  requestIndex?: (key: InstallationKey) => Promise<void>;
  /** The background tasks (lib/tasks `getTaskService()`). */
  tasks: () => TaskStarter;
  now?: () => number;
};

type Ctx<N extends keyof typeof segmentsOperations> = RouteContext<SegmentRouteDeps, RouteInput<(typeof segmentsOperations)[N]>>;
type AnyCtx = RouteContext<SegmentRouteDeps>;

const keyOf = (ctx: AnyCtx): InstallationKey => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId });
const actorOf = (ctx: AnyCtx) => ({ userId: ctx.session.userId, name: ctx.session.userName || ctx.session.userId });
const nowOf = (ctx: AnyCtx) => (ctx.deps.now ?? Date.now)();
const options = { scope: "segments", unavailable: "Segments are unavailable; try again." } as const;
const json = (ctx: AnyCtx, status: number, body: unknown) => jsonResponse(status, JSON.stringify(body), ctx.requestId);

const notFound = () => new ApiError({ status: 404, code: "not_found", message: "no such segment" });

/** The index's tenant number; a tenant whose index has not started gets it started and counts nothing yet. */
async function tenantOf(ctx: AnyCtx, store: Store): Promise<number | undefined> {
  const state = await findTenant(store, keyOf(ctx));
  if (!state) await ctx.deps.requestIndex?.(keyOf(ctx));
  return state?.tenant;
}

export const handleSegmentsList = apiRoute({ ...options, name: "segments list", operation: segmentsOperations["segments.list"] }, async (ctx: Ctx<"segments.list">) => {
  return json(ctx, 200, { segments: await listSegments(await ctx.deps.store(), keyOf(ctx)) });
});

export const handleSegmentCreate = apiRoute({ ...options, name: "segment create", operation: segmentsOperations["segments.create"] }, async (ctx: Ctx<"segments.create">) => {
  const segment = await createSegment(await ctx.deps.store(), keyOf(ctx), ctx.input.body, actorOf(ctx), nowOf(ctx));
  ctx.fields.segmentId = segment.id;
  return json(ctx, 201, { segment });
});

export const handleSegmentGet = apiRoute({ ...options, name: "segment get", operation: segmentsOperations["segments.get"] }, async (ctx: Ctx<"segments.get">) => {
  const store = await ctx.deps.store();
  const segment = await getSegment(store, keyOf(ctx), ctx.input.params.id);
  if (!segment) throw notFound();
  const runs = await listRuns(store, keyOf(ctx), segment.id);
  return json(ctx, 200, { segment, runs, running: runs[0]?.state === "running" });
});

export const handleSegmentUpdate = apiRoute({ ...options, name: "segment update", operation: segmentsOperations["segments.update"] }, async (ctx: Ctx<"segments.update">) => {
  const segment = await updateSegment(await ctx.deps.store(), keyOf(ctx), ctx.input.params.id, ctx.input.body, nowOf(ctx));
  if (!segment) throw notFound();
  return json(ctx, 200, { segment });
});

export const handleSegmentDelete = apiRoute({ ...options, name: "segment delete", operation: segmentsOperations["segments.delete"] }, async (ctx: Ctx<"segments.delete">) => {
  if (!(await deleteSegment(await ctx.deps.store(), keyOf(ctx), ctx.input.params.id))) throw notFound();
  return json(ctx, 200, { deleted: ctx.input.params.id });
});

export const handleSegmentCount = apiRoute({ ...options, name: "segment count", operation: segmentsOperations["segments.count"] }, async (ctx: Ctx<"segments.count">) => {
  const store = await ctx.deps.store();
  const tenant = await tenantOf(ctx, store);
  if (tenant === undefined) return json(ctx, 200, { count: 0, indexed: 0, ready: false });
  const state = await findTenant(store, keyOf(ctx));
  const [count, indexed] = await Promise.all([countSegment({ store, tenant, definition: ctx.input.body.definition, now: nowOf(ctx) }), countIndexed(store, tenant)]);
  ctx.fields.count = count;
  return json(ctx, 200, { count, indexed, ready: state?.phase === "ready" });
});

export const handleSegmentPreview = apiRoute({ ...options, name: "segment preview", operation: segmentsOperations["segments.preview"] }, async (ctx: Ctx<"segments.preview">) => {
  const store = await ctx.deps.store();
  const tenant = await tenantOf(ctx, store);
  if (tenant === undefined) return json(ctx, 200, { rows: [], hasMore: false });
  const { definition, sort, order, limit, offset } = ctx.input.body;
  const page = await previewSegment({ store, tenant, definition, now: nowOf(ctx), ...(sort ? { sort } : {}), ...(order ? { order } : {}), limit: limit ?? 50, offset: offset ?? 0 });
  return json(ctx, 200, page);
});

export const handleSegmentSync = apiRoute({ ...options, name: "segment sync", operation: segmentsOperations["segments.sync"] }, async (ctx: Ctx<"segments.sync">) => {
  const store = await ctx.deps.store();
  const key = keyOf(ctx);
  const segment = await getSegment(store, key, ctx.input.params.id);
  if (!segment) throw notFound();
  const { listId, newListName, confirmEveryone } = ctx.input.body;
  // Refusals before anything is written: the caller's choice is asked again or completed.
  if (matchesEveryone(segment.definition) && !confirmEveryone)
    throw new ApiError({ status: 409, code: "confirm_everyone", message: "the segment has no conditions and holds every customer; confirm to sync it", fieldErrors: [{ field: "confirmEveryone", message: "confirm syncing every customer" }] });
  if (!listId && !newListName && !segment.listId) throw new ApiError({ status: 422, code: "invalid_input", message: "choose a list or name a new one", fieldErrors: [{ field: "newListName", message: "is required" }] });
  if ((await findTenant(store, key)) === undefined) throw new ApiError({ status: 409, code: "index_not_ready", message: "the people index is still being built; try again shortly" });
  const { started, task } = await startSync(ctx.deps.tasks(), key, { segmentId: segment.id, ...(listId ? { listId } : {}), ...(newListName ? { newListName } : {}), ...(confirmEveryone ? { confirmEveryone } : {}) }, actorOf(ctx));
  Object.assign(ctx.fields, { started, taskId: task.id });
  return json(ctx, 202, { started, taskId: task.id, segment });
});

/** Tagging calls the platform once per customer (§4.5): a segment this large is tagged through a list instead. */
export const MAX_TAG_CUSTOMERS = 5_000;

export const handleSegmentTag = apiRoute({ ...options, name: "segment tag", operation: segmentsOperations["segments.tag"] }, async (ctx: Ctx<"segments.tag">) => {
  const store = await ctx.deps.store();
  const key = keyOf(ctx);
  const segment = await getSegment(store, key, ctx.input.params.id);
  if (!segment) throw notFound();
  const tenant = await tenantOf(ctx, store);
  const ids = tenant === undefined ? [] : await segmentIds({ store, tenant, definition: segment.definition, now: nowOf(ctx) });
  if (ids.length > MAX_TAG_CUSTOMERS)
    throw new ApiError({ status: 422, code: "too_many", message: `tagging reaches at most ${MAX_TAG_CUSTOMERS} customers at once; this segment holds ${ids.length}`, fieldErrors: [{ field: "params.id", message: `holds more than ${MAX_TAG_CUSTOMERS} customers` }] });
  const call = ctx.deps.callerFor(key);
  const names = [...new Set(ctx.input.body.names)];
  const outcome = await runBounded(ids, (id) => patient({}, () => call("customerTags.add", addTagsInput(id, names))), { concurrency: 4 });
  const failures = outcome.results.flatMap((r) => (r.status === "failed" ? [{ customerId: r.item, reason: r.error instanceof Error ? r.error.message : String(r.error) }] : []));
  Object.assign(ctx.fields, { tagged: ids.length - failures.length, failed: failures.length });
  return json(ctx, 200, { tagged: ids.length - failures.length, failed: failures.length, failures: failures.slice(0, 100) });
});

/** Ids per platform read of the export (`idList`). */
const EXPORT_IDS = 200;

export const handleSegmentExport = apiRoute({ ...options, name: "segment export", operation: segmentsOperations["segments.export"], streams: true }, async (ctx: Ctx<"segments.export">) => {
  const store = await ctx.deps.store();
  const key = keyOf(ctx);
  const segment = await getSegment(store, key, ctx.input.params.id);
  if (!segment) throw notFound();
  const tenant = (await tenantOf(ctx, store)) ?? -1;
  const asked = (ctx.input.query.columns ?? "").split(",").filter((c): c is CustomerColumn => (CUSTOMER_COLUMNS as readonly string[]).includes(c));
  const columns: CustomerColumn[] = asked.length ? (asked.includes("id") ? asked : ["id", ...asked]) : ["id", "displayName", "mobile", "email", "stage", "source", "dateCreated"];
  const call = ctx.deps.callerFor(key);
  const now = nowOf(ctx);
  // The customers page's writer walks "after the last id" (idFrom); here the ids come from the
  // segment, and their live records from the platform by `idList`, a page at a time.
  const fetchPage: FetchPage = async (query) => {
    let after = query.idFrom !== undefined ? (BigInt(String(query.idFrom)) - 1n).toString() : null;
    for (;;) {
      const ids = await segmentIdsAfter({ store, tenant, definition: segment.definition, now, afterId: after, limit: EXPORT_IDS });
      if (ids.length === 0) return [];
      const page = (await patient({}, () => call("customers.list", { query: { idList: ids.join(","), select: columns.join(","), rows: ids.length, page: 1, sidx: "id", sord: "asc" } }))) as { rows?: ExportRow[] };
      const rows = (page.rows ?? []).map((r) => ({ ...r, id: String(r.id) }));
      if (rows.length > 0) return rows;
      after = ids.at(-1)!; // every one of these was deleted on the platform since: the next ids
    }
  };
  const stream = await startCsvExport({ filters: {}, userRange: {}, order: "asc", columns }, fetchPage, {
    onEnd: ({ rows, error }) => (error ? ctx.log.warn({ ...ctx.fields, rows, err: error instanceof Error ? error.message : String(error) }, "segment export failed midway") : ctx.log.info({ ...ctx.fields, rows }, "segment export")),
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName("segment")}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": ctx.requestId,
    },
  });
});
