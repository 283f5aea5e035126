import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps, type RouteInput } from "@/lib/http/route";
import type { Store } from "@/lib/store/database";
import { deleteView, listViews, saveView } from "./saved-views";
import { normalizeViewQuery } from "./view-lists";
import type { SavedViewAnswer, SavedViewListAnswer } from "./views-api";
import { viewsOperations } from "./views-operations";

/**
 * `/api/views` (lib/views): saved views of the list pages. The query is stored as the list itself
 * writes it (`normalizeViewQuery`), so a view can hold nothing the page would not read.
 */
export type ViewsRouteDeps = RouteDeps & { store: () => Promise<Store>; now?: () => number };
type Ctx<N extends keyof typeof viewsOperations> = RouteContext<ViewsRouteDeps, RouteInput<(typeof viewsOperations)[N]>>;

const keyOf = (ctx: { session: { openAppId: string; tenantId: string } }) => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId });

export const handleViewList = apiRoute({ name: "saved views", scope: "views", operation: viewsOperations["views.list"] }, async (ctx: Ctx<"views.list">) => {
  const answer: SavedViewListAnswer = { views: await listViews(await ctx.deps.store(), keyOf(ctx), ctx.session.userId, ctx.input.query.list) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

export const handleViewSave = apiRoute({ name: "saved view save", scope: "views", operation: viewsOperations["views.save"] }, async (ctx: Ctx<"views.save">) => {
  const { list, name, query, shared, replace } = ctx.input.body;
  const result = await saveView(
    await ctx.deps.store(),
    keyOf(ctx),
    { userId: ctx.session.userId, name: ctx.session.userName },
    { list, name, shared, replace, query: normalizeViewQuery(list, query) },
    (ctx.deps.now ?? Date.now)(),
  );
  if (!result.ok) {
    if (result.reason === "exists") throw new ApiError({ status: 409, code: "view_exists", message: "A view with this name exists; replace it or choose another name.", fieldErrors: [{ field: "name", message: "already used" }] });
    if (result.reason === "forbidden") throw new ApiError({ status: 403, code: "not_yours", message: "Only the person who shared this view can replace it.", fieldErrors: [{ field: "name", message: "shared by someone else" }] });
    throw new ApiError({ status: 422, code: "too_many_views", message: "Too many saved views for this list; delete one first." });
  }
  const answer: SavedViewAnswer = { view: result.view, replaced: result.replaced };
  return jsonResponse(result.replaced ? 200 : 201, JSON.stringify(answer), ctx.requestId);
});

export const handleViewDelete = apiRoute({ name: "saved view delete", scope: "views", operation: viewsOperations["views.delete"] }, async (ctx: Ctx<"views.delete">) => {
  const outcome = await deleteView(await ctx.deps.store(), keyOf(ctx), ctx.session.userId, ctx.input.params.id);
  if (outcome === "not_found") throw new ApiError({ status: 404, code: "not_found", message: "No such view." });
  if (outcome === "forbidden") throw new ApiError({ status: 403, code: "not_yours", message: "Only the person who shared this view can delete it." });
  return jsonResponse(200, JSON.stringify({ deleted: true }), ctx.requestId);
});
