import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteContext, type RouteInput } from "@/lib/http/route";
import { callerWith } from "@/lib/platform/installation-call";
import { callOptionsFor, type PlatformRouteContext, type ProxyDeps } from "@/lib/proxy/proxy";
import type { InstallationKey } from "@/lib/store/installations";
import type { SearchService } from "@/lib/search/service";
import type { DuplicateService } from "./duplicate-service";
import { duplicatesOperations } from "./duplicates-operations";
import type { Rule } from "./match-keys";

/**
 * `/api/duplicates/…`: the review queue, counts, one merge, "not the same person", the
 * whole-tenant pass and the bulk merge of one rule (dry run, start; progress and stop are the tasks
 * routes') and the history. Routes like
 * the proxy (the `X-Open-App-Id` session, CSRF on writes, the installation's token for the merge).
 */
export type DuplicatesRouteDeps = ProxyDeps & { duplicates: () => DuplicateService; search?: () => Pick<SearchService, "requestSync"> };
type Ctx<N extends keyof typeof duplicatesOperations> = RouteContext<DuplicatesRouteDeps, RouteInput<(typeof duplicatesOperations)[N]>>;
type AnyCtx = RouteContext<DuplicatesRouteDeps>;

const keyOf = (ctx: AnyCtx): InstallationKey => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId });
/** The staff member's name for the history (the session holds ids and names only). */
const actorOf = (ctx: AnyCtx): string | null => {
  const session = ctx.session as { userName?: unknown; userId?: unknown };
  const name = typeof session.userName === "string" && session.userName !== "" ? session.userName : typeof session.userId === "string" ? session.userId : null;
  return name ? name.slice(0, 512) : null;
};
/** The task actor of the session (who started a pass or a bulk merge). */
const taskActorOf = (ctx: AnyCtx) => {
  const session = ctx.session as { userId?: unknown };
  return { userId: typeof session.userId === "string" ? session.userId : "unknown", name: actorOf(ctx) ?? "" };
};
const json = (ctx: AnyCtx, status: number, body: unknown) => jsonResponse(status, JSON.stringify(body), ctx.requestId);
const noIndex = () => new ApiError({ status: 409, code: "index_not_ready", message: "The customer index of this tenant is not built yet; duplicates are found once it is." });

const options = { scope: "duplicates", unavailable: "Duplicates are unavailable; try again." } as const;

export const handleDuplicateQueue = apiRoute({ ...options, name: "duplicate queue", operation: duplicatesOperations["duplicates.queue"] }, async (ctx: Ctx<"duplicates.queue">) => {
  const { rule, limit, offset } = ctx.input.query;
  // Duplicates come from the people index: opening the queue starts (or refreshes) its sync, as search does.
  void ctx.deps.search?.().requestSync(keyOf(ctx)).catch((error: unknown) => ctx.log.warn({ ...ctx.fields, err: String(error) }, "customer index sync not started"));
  return json(ctx, 200, await ctx.deps.duplicates().queue(keyOf(ctx), { rule, limit: limit ?? 20, offset: offset ?? 0 }));
});

export const handleDuplicateCounts = apiRoute({ ...options, name: "duplicate counts", operation: duplicatesOperations["duplicates.counts"] }, async (ctx: Ctx<"duplicates.counts">) =>
  json(ctx, 200, await ctx.deps.duplicates().counts(keyOf(ctx))),
);

export const handleDuplicateMerge = apiRoute({ ...options, name: "duplicate merge", operation: duplicatesOperations["duplicates.merge"] }, async (ctx: Ctx<"duplicates.merge">) => {
  const { fromId, toId, rule } = ctx.input.body;
  Object.assign(ctx.fields, { fromId, toId, rule });
  const call = callerWith(await callOptionsFor(ctx as unknown as PlatformRouteContext));
  const answer = await ctx.deps.duplicates().merge(keyOf(ctx), { fromId, toId, rule: (rule ?? null) as Rule | null, by: actorOf(ctx) }, call);
  if (!answer) throw noIndex();
  const { before, ...shown } = answer;
  // The audit entry keeps both customers as they were before the merge (the source is gone after it).
  ctx.audit = {
    targets: [
      { kind: "customer", id: fromId },
      { kind: "customer", id: toId },
    ],
    ...(before ? { changes: { source: { before: before.from }, survivor: { before: before.to } } } : {}),
  };
  if (answer.outcome === "merged") return json(ctx, 200, shown);
  // Refused by the platform, or no longer a match: nothing merged, the reason said.
  throw new ApiError({ status: 409, code: answer.outcome === "refused" ? "merge_refused" : "merge_skipped", message: answer.reason ?? "not merged" });
});

export const handleDuplicateDismiss = apiRoute({ ...options, name: "duplicate dismiss", operation: duplicatesOperations["duplicates.dismiss"] }, async (ctx: Ctx<"duplicates.dismiss">) => {
  if (!(await ctx.deps.duplicates().dismiss(keyOf(ctx), ctx.input.body.a, ctx.input.body.b, actorOf(ctx)))) throw noIndex();
  return json(ctx, 200, { dismissed: true });
});

export const handleDuplicateScan = apiRoute({ ...options, name: "duplicate scan", operation: duplicatesOperations["duplicates.scan"] }, async (ctx: Ctx<"duplicates.scan">) => {
  const started = await ctx.deps.duplicates().scan(keyOf(ctx), taskActorOf(ctx));
  if (!started) throw noIndex();
  return json(ctx, 202, started);
});

export const handleDuplicatePlan = apiRoute({ ...options, name: "duplicate bulk plan", operation: duplicatesOperations["duplicates.plan"] }, async (ctx: Ctx<"duplicates.plan">) =>
  json(ctx, 200, { plan: await ctx.deps.duplicates().plan(keyOf(ctx), ctx.input.query.rule as Rule) }),
);

export const handleDuplicateBulk = apiRoute({ ...options, name: "duplicate bulk merge", operation: duplicatesOperations["duplicates.bulk"] }, async (ctx: Ctx<"duplicates.bulk">) => {
  const started = await ctx.deps.duplicates().bulk(keyOf(ctx), ctx.input.body.rule as Rule, taskActorOf(ctx));
  if (!started) throw noIndex();
  return json(ctx, 202, started);
});

export const handleDuplicateHistory = apiRoute({ ...options, name: "duplicate history", operation: duplicatesOperations["duplicates.history"] }, async (ctx: Ctx<"duplicates.history">) => {
  const { taskId, limit } = ctx.input.query;
  return json(ctx, 200, { merges: await ctx.deps.duplicates().history(keyOf(ctx), { limit: limit ?? 100, ...(taskId ? { taskId } : {}) }) });
});
