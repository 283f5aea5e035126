import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteInput, type RouteContext, type RouteDeps } from "@/lib/http/route";
import type { Store } from "@/lib/store/database";
import { canKeepPreference, readPreferences, writePreference, type PreferenceScope } from "./server-preferences";
import { preferencesOperations } from "./preferences-operations";

/**
 * `/api/preferences` (docs/decisions/preferences-in-the-app-store.md): the console's preferences in the app's store.
 * - `GET`: `{attrLabels, customerColumns}` of the session's tenant and user.
 * - `PUT {key, value}`: one known key, checked by the route's schema (preferences-operations.ts, with
 *   preference-rules.ts); a bad one is the wrapper's 422 naming the field and nothing changes. CSRF
 *   as every mutation (lib/http/route.ts).
 */
export type PreferencesRouteDeps = RouteDeps & { store: () => Promise<Store> };
type Ctx<N extends keyof typeof preferencesOperations> = RouteContext<PreferencesRouteDeps, RouteInput<(typeof preferencesOperations)[N]>>;
/** What the helpers below take: any of the routes' contexts. */
type AnyCtx = RouteContext<PreferencesRouteDeps>;

const scopeOf = (ctx: AnyCtx): PreferenceScope => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId, userId: ctx.session.userId });

const options = { name: "preferences", op: "preferences", scope: "preferences" } as const;

export const handlePreferencesGet = apiRoute({ ...options, operation: preferencesOperations["preferences.get"] }, async (ctx: Ctx<"preferences.get">) => {
  const preferences = await readPreferences(await ctx.deps.store(), scopeOf(ctx));
  return jsonResponse(200, JSON.stringify(preferences), ctx.requestId);
});

export const handlePreferencePut = apiRoute({ ...options, operation: preferencesOperations["preferences.put"] }, async (ctx: Ctx<"preferences.put">) => {
  const { key, value } = ctx.input.body;
  const store = await ctx.deps.store();
  const scope = scopeOf(ctx);
  if (!canKeepPreference(scope, key))
    throw new ApiError({ status: 409, code: "no_user_key", message: "the platform named no id or login for this user, so personal preferences cannot be kept" });
  const before = (await readPreferences(store, scope))[key];
  await writePreference(store, scope, key, value, ctx.session.userName || ctx.session.userId);
  ctx.audit = { changes: { [key]: { before: before ?? null, after: value } } };
  Object.assign(ctx.fields, { key });
  return jsonResponse(200, JSON.stringify(await readPreferences(store, scope)), ctx.requestId);
});
