import "server-only";
import type { Store } from "@/lib/store/database";
import { PREFERENCE_KEYS, checkPreference, type PreferenceKey, type Preferences } from "./preference-rules";

/** One staff member in one tenant of one environment: a tenant's preferences are never seen by another. */
export type PreferenceScope = { openAppId: string; tenantId: string; userId: string };

/**
 * The row's owner: '' for the tenant's own keys, the user for personal ones. A user without a key
 * (lib/auth/flow-handlers.ts `currentUserOf`) owns no personal row: '' would be the tenant's.
 */
const ownerOf = (scope: PreferenceScope, key: PreferenceKey): string | undefined => (PREFERENCE_KEYS[key] === "tenant" ? "" : scope.userId || undefined);

/** Whether this user can keep the key (a personal key needs a user key). */
export function canKeepPreference(scope: PreferenceScope, key: PreferenceKey): boolean {
  return ownerOf(scope, key) !== undefined;
}

/** The preferences this user sees; a stored value that no longer passes its check is left out. */
export async function readPreferences(store: Store, scope: PreferenceScope): Promise<Preferences> {
  const rows = await store.db
    .selectFrom("console_preferences")
    .select(["user_id", "key", "value"])
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId)
    .where("user_id", "in", scope.userId ? ["", scope.userId] : [""])
    .execute();
  const out: Preferences = { attrLabels: {}, customerColumns: null };
  for (const row of rows) {
    if (!Object.hasOwn(PREFERENCE_KEYS, row.key)) continue;
    const key = row.key as PreferenceKey;
    if (row.user_id !== ownerOf(scope, key)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      continue;
    }
    const checked = checkPreference(key, parsed);
    if (checked.ok) (out as Record<string, unknown>)[key] = checked.value;
  }
  return out;
}

/** Stores a checked value (the route checks it first); the last write wins. */
export async function writePreference(store: Store, scope: PreferenceScope, key: PreferenceKey, value: unknown, by: string | undefined, now = Date.now()): Promise<void> {
  const owner = ownerOf(scope, key);
  if (owner === undefined) throw new Error(`preference ${key} needs a user key`);
  const row = { value: JSON.stringify(value), updated_by: by?.slice(0, 512) ?? null, updated_at: Math.floor(now) };
  await store.db
    .insertInto("console_preferences")
    .values({ open_app_id: scope.openAppId, tenant_id: scope.tenantId, user_id: owner, key, ...row })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "user_id", "key"]).doUpdateSet(row))
    .execute();
}
