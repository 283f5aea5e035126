import "server-only";
import { exportFileName } from "@/lib/csv";
import { isPlatformId } from "@/lib/platform/ids";
import { apiRoute, jsonResponse, type RouteContext, type RouteInput } from "@/lib/http/route";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { InstallationKey } from "@/lib/store/installations";
import type { TaskRouteDeps } from "@/lib/tasks/task-routes";
import { taskView } from "@/lib/tasks/task-routes";
import type { TaskDefinition } from "@/lib/tasks/task-types";
import type { ExportRow } from "./customer-export";
import type { IndexRequest } from "./export-ids";
import { runCustomerExport, type CustomerExportCheckpoint, type CustomerExportInput, type CustomerExportResult } from "./customer-export-task";
import { exportOperations } from "./export-operations";

/**
 * The customers export on the app's task queue (lib/tasks): `POST /api/export/customers` with the
 * list's URL state starts it (one at a time per tenant: a second start answers the running one),
 * the task walks the platform with the installation's token (not a browser's session), and staff
 * follow it and download the file from the tasks panel (`tasks.file`) for a day.
 */
export const CUSTOMER_EXPORT_TASK = "customers.export";
/** How long the file stays downloadable after the export ends. */
export const EXPORT_FILE_TTL_MS = 24 * 60 * 60_000;

/** The platform caller of an installation, its requests aborted with `signal` (a cancelled task). */
export type CallerFor = (key: InstallationKey, signal: AbortSignal) => PlatformCall;

/** The people index's ids of a search for an installation (lib/search's service). */
export type SearchIdsFor = (key: InstallationKey, request: IndexRequest, signal: AbortSignal) => AsyncIterable<readonly string[]>;

export function customerExportTask(callerFor: CallerFor, searchIdsFor?: SearchIdsFor, pageSize?: number): TaskDefinition<CustomerExportInput, CustomerExportResult, CustomerExportCheckpoint> {
  return {
    kind: CUSTOMER_EXPORT_TASK,
    exclusive: "tenant",
    fileTtlMs: EXPORT_FILE_TTL_MS,
    parseInput: (raw) => {
      const { list, listId } = (raw ?? {}) as { list?: unknown; listId?: unknown };
      if (typeof list !== "string") throw new Error("the export's input names no list state");
      if (listId !== undefined && (typeof listId !== "string" || !isPlatformId(listId))) throw new Error("the export's list id is not an id");
      return { list, ...(listId ? { listId } : {}) };
    },
    run: (ctx) => {
      const call = callerFor(ctx.key, ctx.signal);
      return runCustomerExport(ctx, {
        fetchPage: async (query) => (await call("customers.list", { query })).rows as unknown as ExportRow[],
        count: async (input) => Number(await call("customers.count", input)),
        fileName: exportFileName(ctx.input.listId ? `list-${ctx.input.listId}-members` : "customers", new Date(ctx.task.createdAt)),
        pageSize,
        ...(searchIdsFor ? { searchIds: (request: IndexRequest, signal: AbortSignal) => searchIdsFor(ctx.key, request, signal) } : {}),
        memberIds: (listId, since) => listMemberIds(call, listId, since),
      });
    },
  };
}

/** Members fetched per §4.4 call when a list is exported. */
const MEMBER_PAGE = 1000;

/** A list's member customer ids in customer id order, after `since`, by §4.4 keyset paging (`sinceId` is exclusive). */
export async function* listMemberIds(call: PlatformCall, listId: string, since: string | undefined): AsyncIterable<readonly string[]> {
  let after = since;
  for (;;) {
    const { items } = await call("listMembers.list", { query: { listId, sidx: "customerId", sord: "asc", rows: MEMBER_PAGE, ...(after ? { sinceId: after } : {}) } });
    const ids = items.flatMap((m) => (m.customerId ? [String(m.customerId)] : []));
    if (ids.length > 0) yield ids;
    if (items.length < MEMBER_PAGE || ids.length === 0) return;
    after = ids.at(-1)!;
  }
}

type Ctx = RouteContext<TaskRouteDeps, RouteInput<(typeof exportOperations)["customers.export"]>>;

export const handleCustomerExportStart = apiRoute({ name: "customer export", operation: exportOperations["customers.export"] }, async (ctx: Ctx) => {
  const key = { openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId };
  const input: CustomerExportInput = { list: ctx.input.body.list, ...(ctx.input.body.listId ? { listId: ctx.input.body.listId } : {}) };
  const { task, started } = await ctx.deps.tasks().start(key, CUSTOMER_EXPORT_TASK, input, { userId: ctx.session.userId, name: ctx.session.userName });
  Object.assign(ctx.fields, { taskId: task.id, started });
  return jsonResponse(started ? 202 : 200, JSON.stringify({ task: taskView(task), started }), ctx.requestId);
});
