import "server-only";
import { PlatformError } from "@/lib/platform/errors";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import { recordMerge, replaceCustomerKeys, type MergeOutcome } from "./duplicate-store";
import { matchKeysOf, stillMatch, type MatchSource, type Rule } from "./match-keys";

/**
 * One merge from the queue or a bulk task (§4.1 mergeCustomerById: `from` is merged into `to` and
 * deleted). Safety first:
 * - both customers are read again from the platform, and a merge for a rule goes ahead only while
 *   the fresh records still share that rule's key (a customer changed since the pair was found is
 *   re-checked, never merged on stale data);
 * - the source's identities are read before the merge and, after it, any the survivor lacks is added
 *   back (§4.1 does not say what the merge does with identities; the sandbox moves them, a platform
 *   that dropped one would lose a touchpoint);
 * - a refusal by the platform is recorded with its reason; nothing else changes.
 * Every attempt is written to the history (`duplicate_merges`).
 */

export type MergeDeps = { store: Store; tenant: number; call: PlatformCall; now: () => number };

export type MergeRequest = { fromId: string; toId: string; rule: Rule | null; by: string | null; taskId?: string | null };

export type MergeAnswer = {
  outcome: MergeOutcome;
  fromId: string;
  toId: string;
  reason: string | null;
  identitiesRestored: number;
  /** Both customers as read just before the merge (for the audit log; not sent to the browser). */
  before?: { from: Record<string, unknown>; to: Record<string, unknown> };
};

type Identity = { identityType: string; identityValue: string; identityName?: string | null };

const reasonOf = (error: unknown): string => {
  if (error instanceof PlatformError) return `${error.code ? `${error.code}: ` : ""}${error.message}`.slice(0, 500);
  return error instanceof Error ? error.message.slice(0, 500) : "merge failed";
};

async function identitiesOf(call: PlatformCall, ids: readonly string[]): Promise<Map<string, Identity[]>> {
  const rows = (await call("identities.list", { query: { customerIds: ids.join(",") } })) as Array<{ customerId?: unknown; identityType?: unknown; identityValue?: unknown; identityName?: unknown; type?: unknown; value?: unknown }>;
  const out = new Map<string, Identity[]>(ids.map((id) => [id, []]));
  for (const row of rows) {
    // §2.2: `type`/`value` in some responses.
    const identityType = String(row.identityType ?? row.type ?? "");
    const identityValue = String(row.identityValue ?? row.value ?? "");
    if (!identityType || !identityValue) continue;
    out.get(String(row.customerId))?.push({ identityType, identityValue, identityName: typeof row.identityName === "string" ? row.identityName : null });
  }
  return out;
}

const sourceOf = (customer: Record<string, unknown>, identities: readonly Identity[]): MatchSource => ({
  name: typeof customer.name === "string" ? customer.name : null,
  mobile: typeof customer.mobile === "string" ? customer.mobile : null,
  email: typeof customer.email === "string" ? customer.email : null,
  birthday: typeof customer.birthday === "string" ? customer.birthday : null,
  identities: identities.map((i) => ({ type: i.identityType, value: i.identityValue })),
});

async function readCustomer(call: PlatformCall, id: string): Promise<Record<string, unknown> | null> {
  try {
    return (await call("customers.get", { params: { id } })) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof PlatformError && error.kind === "not_found") return null;
    throw error;
  }
}

export async function mergeDuplicate(deps: MergeDeps, request: MergeRequest): Promise<MergeAnswer> {
  const { store, tenant, call } = deps;
  const { fromId, toId, rule } = request;
  const seen: Pick<MergeAnswer, "before"> = {};
  const done = async (outcome: MergeOutcome, reason: string | null, identitiesRestored = 0): Promise<MergeAnswer> => {
    await recordMerge(store, tenant, { fromId, toId, rule, outcome, reason, identitiesRestored, taskId: request.taskId ?? null, mergedBy: request.by, mergedAt: deps.now() });
    return { outcome, fromId, toId, reason, identitiesRestored, ...seen };
  };
  if (fromId === toId) return done("refused", "a customer cannot be merged into itself");

  const [from, to] = await Promise.all([readCustomer(call, fromId), readCustomer(call, toId)]);
  const identities = await identitiesOf(call, [fromId, toId]);
  for (const [id, customer] of [[fromId, from], [toId, to]] as const) {
    if (!customer) {
      // Gone on the platform: its keys leave the queue now (the index follows with the webhook).
      await replaceCustomerKeys(store, tenant, [{ id, keys: [] }]);
      return done("skipped", `customer ${id} no longer exists`);
    }
  }
  // Both records as they were, with their identities: the audit log keeps them (the source is deleted by the merge).
  seen.before = { from: { ...from!, identities: identities.get(fromId) ?? [] }, to: { ...to!, identities: identities.get(toId) ?? [] } };
  const fromSource = sourceOf(from!, identities.get(fromId) ?? []);
  const toSource = sourceOf(to!, identities.get(toId) ?? []);
  if (rule && !stillMatch(fromSource, toSource, rule)) {
    // Changed since the pair was found: their keys from the fresh records, and no merge.
    await replaceCustomerKeys(store, tenant, [
      { id: fromId, keys: matchKeysOf(fromSource) },
      { id: toId, keys: matchKeysOf(toSource) },
    ]);
    return done("skipped", `changed since the pair was found: no longer the same ${rule}`);
  }

  try {
    await call("customers.mergeById", { query: { fromId, toId } });
  } catch (error) {
    return done("refused", reasonOf(error));
  }

  // The survivor keeps every identity: whatever of the source's it lacks after the merge is added back.
  let restored = 0;
  try {
    const after = (await identitiesOf(call, [toId])).get(toId) ?? [];
    const held = new Set(after.map((i) => `${i.identityType}\u0000${i.identityValue}`));
    for (const identity of identities.get(fromId) ?? []) {
      if (held.has(`${identity.identityType}\u0000${identity.identityValue}`)) continue;
      await call("identities.add", { body: { customerId: toId, identityType: identity.identityType, identityValue: identity.identityValue, ...(identity.identityName ? { identityName: identity.identityName } : {}) } });
      restored++;
    }
  } catch (error) {
    await replaceCustomerKeys(store, tenant, [{ id: fromId, keys: [] }]);
    return done("merged", `merged, but an identity could not be added back: ${reasonOf(error)}`, restored);
  }
  // The source left the platform: out of the queue at once (the index follows with the webhook).
  await replaceCustomerKeys(store, tenant, [{ id: fromId, keys: [] }]);
  return done("merged", null, restored);
}
