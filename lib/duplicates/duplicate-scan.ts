import "server-only";
import { sql } from "kysely";
import type { Store } from "@/lib/store/database";
import type { TaskContext } from "@/lib/tasks/task-types";
import { replaceRuleKeys, dropKeysOutsideIndex, hasKeys, insertKeys, mergedAway, rebuildMatches, replaceCustomerKeys, type CustomerKeys } from "./duplicate-store";
import { matchKeysOf, nameKey, type MatchSource } from "./match-keys";

/**
 * The whole-tenant pass (a background task) and the incremental refresh (index events): both read
 * the people index's rows (`customer_index`, never the index's own mapping) and write the finder's
 * tables. Birthdays are not in the index: they are read from the platform, batched, only for
 * customers whose name another customer shares (the only ones the name + birthday rule can pair).
 */

export type BirthdayReader = (ids: readonly string[]) => Promise<ReadonlyMap<string, string | null>>;

export type ScanDeps = {
  store: Store;
  /** Birthdays of customers (§2.1), at most `BIRTHDAY_BATCH` ids a call; absent: the name + birthday rule is not computed. */
  birthdays?: BirthdayReader;
};

export type ScanInput = { tenant: number };
export type ScanCheckpoint = { after: string | null; phase: "keys" | "birthdays" | "matches"; fresh: boolean };
export type ScanResult = { customers: number; keys: number; birthdaysRead: number };

/** What the scan needs of a task's context (lib/tasks/task-types.ts): a real task or a test's fake. */
export type ScanContext = Pick<TaskContext<ScanInput, ScanCheckpoint>, "input" | "checkpoint" | "progress" | "throwIfCancelled">;

const PAGE = 10_000;
export const BIRTHDAY_BATCH = 100;
/** Birthdays written (and the checkpoint moved) per this many customers: one transaction, not one per call. */
const BIRTHDAY_WRITE = 10_000;

type IndexRow = { customer_id: string; name: string | null; mobile: string | null; email: string | null; identities: string | null };

function sourceOf(row: IndexRow, birthday?: string | null): MatchSource {
  // Identities hold strings only (no ids): the plain parser is enough, and fastest.
  const identities = row.identities ? (JSON.parse(row.identities) as MatchSource["identities"]) : null;
  return { name: row.name, mobile: row.mobile, email: row.email, identities: Array.isArray(identities) ? identities : null, birthday };
}

async function indexPage(store: Store, tenant: number, after: string | null): Promise<IndexRow[]> {
  let query = store.db.selectFrom("customer_index").select(["customer_id", "name", "mobile", "email", "identities"]).where("tenant", "=", tenant);
  if (after !== null) query = query.where("customer_id", ">", after);
  return query.orderBy("customer_id").limit(PAGE).execute();
}

/** The whole tenant's keys from its index, then its matches. Resumes from the checkpoint. */
export async function scanTenant(deps: ScanDeps, ctx: ScanContext): Promise<ScanResult> {
  const { store } = deps;
  const { tenant } = ctx.input;
  const total = Number((await store.db.selectFrom("customer_index").select((eb) => eb.fn.countAll<number | string>().as("n")).where("tenant", "=", tenant).executeTakeFirstOrThrow()).n);
  let checkpoint: ScanCheckpoint = ctx.checkpoint ?? { after: null, phase: "keys", fresh: !(await hasKeys(store, tenant)) };
  let customers = 0;
  let keys = 0;
  let birthdaysRead = 0;

  if (checkpoint.phase === "keys") {
    for (;;) {
      await ctx.throwIfCancelled();
      const rows = await indexPage(store, tenant, checkpoint.after);
      if (rows.length === 0) break;
      const computed: CustomerKeys[] = rows.map((row) => ({ id: row.customer_id, keys: matchKeysOf(sourceOf(row)) }));
      // A first pass only inserts; a re-scan replaces each page's keys (and keeps birthdays it read before out of the way).
      if (checkpoint.fresh) keys += await store.db.transaction().execute((tx) => insertKeys(tx, store.dialect, tenant, computed));
      else {
        await replaceCustomerKeys(store, tenant, computed);
        keys += computed.reduce((n, c) => n + c.keys.length, 0);
      }
      customers += rows.length;
      checkpoint = { ...checkpoint, after: rows[rows.length - 1]!.customer_id };
      await ctx.progress({ done: customers, total, message: "keys", checkpoint });
    }
    checkpoint = { ...checkpoint, after: null, phase: deps.birthdays ? "birthdays" : "matches" };
  }

  if (checkpoint.phase === "birthdays" && deps.birthdays) {
    // Customers whose folded name another customer shares: the only ones a birthday can pair.
    const shared = await sql<{ customer_id: string; name: string }>`
      SELECT ci.customer_id, ci.name FROM customer_index ci
      JOIN (SELECT name_key FROM customer_index WHERE tenant = ${tenant} AND name_key IS NOT NULL GROUP BY name_key HAVING count(*) > 1) n ON n.name_key = ci.name_key
      WHERE ci.tenant = ${tenant} ORDER BY ci.customer_id`.execute(store.db);
    const named = shared.rows.filter((r) => nameKey(r.name) !== null && (checkpoint.after === null || r.customer_id > checkpoint.after));
    for (let i = 0; i < named.length; i += BIRTHDAY_WRITE) {
      await ctx.throwIfCancelled();
      const part = named.slice(i, i + BIRTHDAY_WRITE);
      const found = new Map<string, string | null>();
      for (let j = 0; j < part.length; j += BIRTHDAY_BATCH) {
        for (const [id, birthday] of await deps.birthdays(part.slice(j, j + BIRTHDAY_BATCH).map((r) => r.customer_id))) found.set(id, birthday);
      }
      birthdaysRead += part.length;
      const withBirthday = part.flatMap((r) => {
        const k = matchKeysOf({ name: r.name, birthday: found.get(r.customer_id) ?? null }).filter((m) => m.rule === "nameBirthday");
        return k.length > 0 ? [{ id: r.customer_id, keys: k }] : [];
      });
      await replaceRuleKeys(store, tenant, "nameBirthday", part.map((r) => r.customer_id), withBirthday, { fresh: checkpoint.fresh });
      keys += withBirthday.length;
      checkpoint = { ...checkpoint, after: part[part.length - 1]!.customer_id };
      await ctx.progress({ done: customers, total, message: "birthdays", checkpoint });
    }
    checkpoint = { ...checkpoint, after: null, phase: "matches" };
  }

  await ctx.throwIfCancelled();
  if (!checkpoint.fresh) await dropKeysOutsideIndex(store, tenant);
  await rebuildMatches(store, tenant);
  await ctx.progress({ done: total, total, message: "done", checkpoint });
  return { customers, keys, birthdaysRead };
}

/**
 * Customers that changed in the index (or left it): their keys computed again from their index
 * rows, and their birthdays read when they have a name; a customer no longer in the index loses its keys.
 */
export async function refreshCustomers(deps: ScanDeps, tenant: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const { store } = deps;
  const rows: IndexRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(...(await store.db.selectFrom("customer_index").select(["customer_id", "name", "mobile", "email", "identities"]).where("tenant", "=", tenant).where("customer_id", "in", ids.slice(i, i + 500)).execute()));
  }
  const birthdays = new Map<string, string | null>();
  const named = rows.filter((r) => nameKey(r.name) !== null).map((r) => r.customer_id);
  if (deps.birthdays) {
    for (let i = 0; i < named.length; i += BIRTHDAY_BATCH) for (const [id, b] of await deps.birthdays(named.slice(i, i + BIRTHDAY_BATCH))) birthdays.set(id, b);
  }
  // A customer merged away keeps no keys, whatever a late webhook about it says.
  const gone = await mergedAway(store, tenant, ids);
  const found = new Map(rows.filter((r) => !gone.has(r.customer_id)).map((r) => [r.customer_id, r]));
  await replaceCustomerKeys(
    store,
    tenant,
    ids.map((id) => {
      const row = found.get(id);
      return { id, keys: row ? matchKeysOf(sourceOf(row, birthdays.get(id))) : [] };
    }),
  );
}
