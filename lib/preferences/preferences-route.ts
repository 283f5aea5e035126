import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { readBodyText, refuseUnstorableText } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps } from "@/lib/http/route";
import type { Store } from "@/lib/store/database";
import { checkPreference, isPreferenceKey, PREFERENCE_KEYS } from "./preference-rules";
import { canKeepPreference, readPreferences, writePreference, type PreferenceScope } from "./server-preferences";

/**
 * `/api/preferences` (docs/decisions/preferences-in-the-app-store.md): the console's preferences in the app's store.
 * - `GET`: `{attrLabels, customerColumns}` of the session's tenant and user.
 * - `PUT {key, value}`: one known key, checked (lib/preferences/preference-rules.ts); a bad one is a
 *   400 naming the field and nothing changes. CSRF as every mutation (lib/http/route.ts).
 */
export type PreferencesRouteDeps = RouteDeps & { store: () => Promise<Store> };
type Ctx = RouteContext<PreferencesRouteDeps>;

const scopeOf = (ctx: Ctx): PreferenceScope => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId, userId: ctx.session.userId });
const bad = (fieldErrors: { field: string; message: string }[]) => new ApiError({ status: 400, code: "invalid_input", message: "the preference is not valid", fieldErrors });
/** A body larger than this is refused before parsing (100 labels of 64 characters fit many times). */
const MAX_BODY_BYTES = 32_768;

const options = { name: "preferences", op: "preferences", scope: "preferences", session: true } as const;

export const handlePreferencesGet = apiRoute<PreferencesRouteDeps>(options, async (ctx) => {
  const preferences = await readPreferences(await ctx.deps.store(), scopeOf(ctx));
  return jsonResponse(200, JSON.stringify(preferences), ctx.requestId);
});

export const handlePreferencePut = apiRoute<PreferencesRouteDeps>(options, async (ctx) => {
  const text = await readBodyText(ctx.request, { limit: MAX_BODY_BYTES });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad([{ field: "body", message: "must be JSON" }]);
  }
  refuseUnstorableText(body);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw bad([{ field: "body", message: "must be {key, value}" }]);
  const { key, value, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw bad(extra.map((field) => ({ field, message: "is not known" })));
  if (!isPreferenceKey(key)) throw bad([{ field: "key", message: `must be one of ${Object.keys(PREFERENCE_KEYS).join(", ")}` }]);
  const checked = checkPreference(key, value);
  if (!checked.ok) throw bad(checked.problems);
  const store = await ctx.deps.store();
  const scope = scopeOf(ctx);
  if (!canKeepPreference(scope, key))
    throw new ApiError({ status: 409, code: "no_user_key", message: "the platform named no id or login for this user, so personal preferences cannot be kept" });
  await writePreference(store, scope, key, checked.value, ctx.session.userName || ctx.session.userId);
  Object.assign(ctx.fields, { key });
  return jsonResponse(200, JSON.stringify(await readPreferences(store, scope)), ctx.requestId);
});
