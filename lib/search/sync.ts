import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { runBounded } from "@/lib/batch/bulk-run";
import { backoffMs, type Backoff } from "@/lib/platform/backoff";
import { PlatformError } from "@/lib/platform/errors";
import { clearTenantIndex, customersTagged, deleteCustomers, finishBackfill, indexedTagNames, indexPage, refreshIndexStatistics, setCustomerTags } from "./index-store";
import type { IndexDocument } from "./normalize";
import { ensureTenant, findTenant, updateTenant, type TenantState } from "./tenant-state";
import { isPlatformId } from "@/lib/platform/ids";
import { indexEvents, type IndexEvent, type IndexEventRegistry } from "./index-events";

/**
 * Keeps a tenant's customer index in step with the platform (README "Customer search"):
 * - backfill: keyset by id through GET /v1/customers (§4.1) with large pages and `select`, each
 *   page's identities (GET /v1/customeridentities) and tags (getCustomerTags, §4.5) fetched in
 *   batches beside it; the cursor is stored after every page, so a restart resumes where it stopped;
 * - increments: `lastUpdatedFrom` polling from a watermark (inclusive, §4.1), and webhooks
 *   (customer created/updated/deleted/merged, customer tags added/removed, tags renamed, merged or
 *   deleted) applied one by one;
 * - bounded load: pages one after the other, at most `concurrency` enrichment calls at a time, a
 *   refusal with `Retry-After` (§ not shown; 429 in practice) waited out.
 * One sync per tenant at a time is the job queue's (lib/jobs: singleton key per tenant).
 */

export type SyncDeps = {
  store: Store;
  call: PlatformCall;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The backoff's chance (tests choose it). */
  random?: () => number;
  /** Customers per page (the sandbox's maximum is 1000; the real platform's is not shown, §8). */
  pageSize?: number;
  /** Ids per identities / tags call. */
  batchSize?: number;
  /** Enrichment calls in flight at most. */
  concurrency?: number;
  /** Stop after this many pages (tests: a restart midway). */
  maxPages?: number;
  onProgress?: (state: { indexed: number; total: number | null }) => void;
  /** Milliseconds each page took to write to the store (benchmarks: writes against platform reads). */
  onWrite?: (ms: number) => void;
  /** Where changes after the backfill are announced (default: the process's registry). */
  events?: IndexEventRegistry;
  log?: { warn(obj: object, msg: string): void };
};

function announce(deps: SyncDeps, event: IndexEvent): Promise<void> {
  return (deps.events ?? indexEvents()).publish(event, deps.log);
}

/** The fields the index keeps (§2.1); `select` keeps the pages small. */
export const INDEX_SELECT = "id,name,nickName,displayName,email,mobile,stage,source,gender,dateCreated,lastUpdated,birthday,attr";

type Customer = Record<string, unknown> & { id: string | number };

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" || typeof v === "bigint" ? String(v) : null);

export function documentOf(c: Customer, identities?: Array<{ type: string; value: string }>): IndexDocument {
  return {
    id: String(c.id),
    displayName: str(c.displayName),
    name: str(c.name),
    nickName: str(c.nickName),
    email: str(c.email),
    mobile: str(c.mobile),
    stage: str(c.stage),
    source: str(c.source),
    gender: typeof c.gender === "number" ? c.gender : c.gender === null || c.gender === undefined ? null : Number(c.gender),
    dateCreated: str(c.dateCreated),
    lastUpdated: str(c.lastUpdated),
    birthday: str(c.birthday),
    attrs: c.attr && typeof c.attr === "object" && !Array.isArray(c.attr) ? (c.attr as Record<string, unknown>) : null,
    ...(identities ? { identities } : {}),
  };
}

/** `YYYY-MM-DDTHH:MM:SSZ` (an answer) → `YYYY-MM-DDTHH:MM:SS` (a filter), both UTC (§2). */
export function toFilterTime(value: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})/.exec(value);
  return m?.[1];
}

export function filterTimeOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A refusal that says "later" (429/503, rate-limited, or any `Retry-After`) is waited out longer
 * than the client's own brief retries: the one backoff rule (lib/platform/backoff.ts) from 1 s
 * doubling to a minute, half of it left to chance so tenants refused together do not return
 * together, a `Retry-After` as its floor (a minute at most); 8 waits, a few minutes in all.
 */
export const REFUSAL_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000, jitter: 0.5, maxRetryAfterMs: 60_000 };
export const REFUSAL_WAITS = 8;

export async function patient<T>(deps: Pick<SyncDeps, "sleep" | "random">, fn: () => Promise<T>): Promise<T> {
  const sleep = deps.sleep ?? realSleep;
  for (let retry = 1; ; retry++) {
    try {
      return await fn();
    } catch (error) {
      const wait = error instanceof PlatformError && (error.httpStatus === 429 || error.httpStatus === 503 || error.kind === "rate_limited" || error.retryAfterSeconds !== undefined);
      if (!wait || retry > REFUSAL_WAITS) throw error;
      await sleep(backoffMs(retry, REFUSAL_BACKOFF, deps.random, error.retryAfterSeconds));
    }
  }
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Identities and tags of some customers, in batches, bounded concurrency. */
async function enrich(deps: SyncDeps, ids: readonly string[]): Promise<{ identities: Map<string, Array<{ type: string; value: string }>>; tags: Map<string, string[]> }> {
  const size = deps.batchSize ?? 200;
  const parts = batches(ids, size);
  const identities = new Map<string, Array<{ type: string; value: string }>>(ids.map((id) => [id, []]));
  const tags = new Map<string, string[]>(ids.map((id) => [id, []]));
  const jobs = parts.flatMap((part) => [
    async () => {
      const rows = await patient(deps, () => deps.call("identities.list", { query: { customerIds: part.join(",") } }));
      for (const row of rows as Array<{ customerId?: unknown; identityType?: unknown; identityValue?: unknown }>) {
        const id = str(row.customerId);
        const type = str(row.identityType);
        const value = str(row.identityValue);
        if (id && type && value) identities.get(id)?.push({ type, value });
      }
    },
    async () => {
      const answer = await patient(deps, () => deps.call("customerTags.get", { query: { customerId: part.join(",") } }));
      for (const [id, names] of Object.entries(answer as Record<string, string | null>)) {
        if (!tags.has(id)) continue;
        tags.set(id, names ? names.split(",").map((n) => n.trim()).filter(Boolean) : []);
      }
    },
  ]);
  // The one concurrency limiter; the first failure stops the rest from starting and is thrown.
  const stop = new AbortController();
  const outcome = await runBounded(
    jobs,
    (job) =>
      job().catch((error: unknown) => {
        stop.abort();
        throw error;
      }),
    { concurrency: deps.concurrency ?? 4, signal: stop.signal },
  );
  const failed = outcome.results.find((result) => result.status === "failed");
  if (failed?.status === "failed") throw failed.error;
  return { identities, tags };
}

/** A page of customers with what the enrichment calls answered for them. */
type LoadedPage = { customers: Customer[]; identities: Map<string, Array<{ type: string; value: string }>>; tags: Map<string, string[]> };

async function enrichPage(deps: SyncDeps, customers: Customer[]): Promise<LoadedPage> {
  return { customers, ...(await enrich(deps, customers.map((c) => String(c.id)))) };
}

/** One page into the index: the customers and their tags in one transaction. */
async function writePage(deps: SyncDeps, tenant: number, { customers, identities, tags }: LoadedPage, options: { backfill?: boolean } = {}): Promise<void> {
  const started = performance.now();
  await indexPage(deps.store, tenant, customers.map((c) => documentOf(c, identities.get(String(c.id)))), tags, options);
  deps.onWrite?.(performance.now() - started);
}

async function indexCustomers(deps: SyncDeps, tenant: number, customers: Customer[]): Promise<void> {
  await writePage(deps, tenant, await enrichPage(deps, customers));
}

/** Pages of a backfill read ahead of the one being written. */
const READ_AHEAD = 2;

/** A poll round that changed at least this many customers refreshes the planner's statistics too. */
const LARGE_CHANGE = 10_000;

function maxLastUpdated(customers: readonly Customer[], current: string | null): string | null {
  let best = current;
  for (const c of customers) {
    const t = typeof c.lastUpdated === "string" ? toFilterTime(c.lastUpdated) : undefined;
    if (t && (!best || t > best)) best = t;
  }
  return best;
}

/**
 * The backfill from where it stopped, to the end. The polling watermark is set when it starts
 * (a minute back), so changes made while it runs are picked up by the first poll.
 */
export async function backfill(deps: SyncDeps, key: InstallationKey): Promise<TenantState> {
  const now = deps.now ?? Date.now;
  const { store } = deps;
  let state = await ensureTenant(store, key);
  if (state.phase !== "backfill") return state;
  if (state.startedAt === null || state.pollFrom === null) {
    const pollFrom = filterTimeOf(now() - 60_000);
    await updateTenant(store, state.tenant, { startedAt: now(), pollFrom, error: null });
    state = { ...state, startedAt: now(), pollFrom };
  }
  if (state.total === null) {
    const total = await patient(deps, () => deps.call("customers.count", {}));
    state.total = Number(total);
    await updateTenant(store, state.tenant, { total: state.total });
  }
  const rows = deps.pageSize ?? 1000;
  let after = state.backfillAfter;
  let indexed = state.indexed;
  let pages = 0;
  // The next page is requested while the current one is enriched and written.
  const fetchPage = (afterId: string | null) =>
    patient(deps, () =>
      deps.call("customers.list", { query: { select: INDEX_SELECT, rows, page: 1, sidx: "id", sord: "asc", ...(afterId ? { idFrom: (BigInt(afterId) + 1n).toString() } : {}) } }),
    );
  // Reads overlap writes: while pages N and N-1 are written, pages N+1 and N+2 are read and enriched
  // (their identities and tags). A page is asked for as soon as the one before it is known (its last
  // id is where the next starts), so the platform's answers do not wait for the store's writes.
  type Loading = { page: Promise<Customer[]>; loaded: Promise<LoadedPage> };
  const loading = (page: Promise<Customer[]>): Loading => {
    const loaded = page.then((customers) => enrichPage(deps, customers));
    // A read abandoned when the backfill stops early must not surface as an unhandled rejection.
    page.catch(() => undefined);
    loaded.catch(() => undefined);
    return { page, loaded };
  };
  const firstPage = () => loading(fetchPage(after).then((answer) => answer.rows as unknown as Customer[]));
  /** Page number `index` (from 0 in this run), after `previous`: empty when the previous was the last, or past `maxPages`. */
  const pageAfter = (previous: Loading, index: number): Loading =>
    loading(
      previous.page.then(async (customers) => {
        if (customers.length < rows || (deps.maxPages !== undefined && index >= deps.maxPages)) return [];
        return (await fetchPage(String(customers[customers.length - 1]!.id))).rows as unknown as Customer[];
      }),
    );
  // Two pages are written at once (PostgreSQL then works on both cores: 500,000 customers 73 → 45 s);
  // the checkpoint moves on in page order, only past pages that are all in the store, so a restart
  // resumes after the last page of an unbroken run.
  type Written = { write: Promise<void>; last: string; count: number };
  let writing: Written | null = null;
  /**
   * Waits for a page's write and records it. False when the installation's index was removed
   * meanwhile: then, once the other page in flight is written too, what was written is dropped.
   */
  const settle = async (page: Written): Promise<boolean> => {
    await page.write;
    after = page.last;
    indexed += page.count;
    if (!(await updateTenant(store, state.tenant, { backfillAfter: after, indexed, lastChangeAt: now() }))) {
      if (writing && writing !== page) await writing.write.catch(() => undefined);
      writing = null;
      await clearTenantIndex(store, state.tenant);
      return false;
    }
    deps.onProgress?.({ indexed, total: state.total });
    return true;
  };
  const queue: Loading[] = [firstPage()];
  try {
    for (;;) {
      while (queue.length <= READ_AHEAD) queue.push(pageAfter(queue[queue.length - 1]!, pages + queue.length));
      const current = queue.shift()!;
      const customers: Customer[] = await current.page;
      if (customers.length === 0) break;
      const last = String(customers[customers.length - 1]!.id);
      const page: Written = { write: current.loaded.then((loaded) => writePage(deps, state.tenant, loaded, { backfill: true })), last, count: customers.length };
      // Settled below or in the `finally`; a failure is thrown from there, not left unhandled meanwhile.
      page.write.catch(() => undefined);
      pages++;
      const previous: Written | null = writing;
      writing = page;
      if (previous && !(await settle(previous))) return { ...state, indexed: 0 };
    }
    const final: Written | null = writing;
    writing = null;
    if (final && !(await settle(final))) return { ...state, indexed: 0 };
  } finally {
    // Thrown out of the loop with a page still being written: it ends before the backfill does.
    if (writing) await writing.write.catch(() => undefined);
  }
  if (deps.maxPages !== undefined && pages >= deps.maxPages) {
    return { ...state, backfillAfter: after, indexed };
  }
  // A backfill adds a tenant's rows at once: the planner must know before the first search.
  await finishBackfill(store);
  await updateTenant(store, state.tenant, { phase: "ready", syncedAt: now() });
  await announce(deps, { type: "backfilled", key, tenant: state.tenant });
  return (await findTenant(store, key))!;
}

/** One round of `lastUpdatedFrom` polling: every customer changed since the watermark, re-indexed. */
export async function poll(deps: SyncDeps, key: InstallationKey): Promise<number> {
  const now = deps.now ?? Date.now;
  const state = await findTenant(deps.store, key);
  if (!state || state.phase !== "ready") return 0;
  const rows = deps.pageSize ?? 1000;
  const from = state.pollFrom ?? filterTimeOf(now() - 3600_000);
  let watermark: string | null = state.pollFrom;
  let changed = 0;
  for (let page = 1; ; page++) {
    const answer = await patient(deps, () => deps.call("customers.list", { query: { select: INDEX_SELECT, rows, page, sidx: "id", sord: "asc", lastUpdatedFrom: from } }));
    const customers = answer.rows as unknown as Customer[];
    if (customers.length > 0) {
      await indexCustomers(deps, state.tenant, customers);
      await announce(deps, { type: "changed", key, tenant: state.tenant, ids: customers.map((c) => String(c.id)) });
    }
    changed += customers.length;
    watermark = maxLastUpdated(customers, watermark);
    if (customers.length < rows) break;
  }
  await updateTenant(deps.store, state.tenant, { pollFrom: watermark ?? from, syncedAt: now(), error: null, ...(changed > 0 ? { lastChangeAt: now() } : {}) });
  if (changed >= LARGE_CHANGE) await refreshIndexStatistics(deps.store);
  return changed;
}

/** What a webhook delivery says about customers (§6: the payload is not shown; the sandbox's shape). */
export type CustomerChange = { resource: string; action: string; id: string; data?: Record<string, unknown> };

/** Applies one change from a webhook: re-reads the customer (the platform is the source of truth) or removes it. */
export async function applyChange(deps: SyncDeps, key: InstallationKey, change: CustomerChange): Promise<void> {
  const now = deps.now ?? Date.now;
  const state = await findTenant(deps.store, key);
  if (!state) return; // no index for this installation yet: the backfill will read everything
  const { store } = deps;
  const id = change.id;
  if (!isPlatformId(id)) return;
  const changed: string[] = [];
  const removed: string[] = [];
  if (change.resource === "customer") {
    if (change.action === "deleted") {
      await deleteCustomers(store, state.tenant, [id]);
      removed.push(id);
    } else {
      // A merge names the customer that stays; the merged-away one (`fromId`) leaves the index.
      const fromId = str(change.data?.fromId);
      if (change.action === "merged" && fromId && fromId !== id && isPlatformId(fromId)) {
        await deleteCustomers(store, state.tenant, [fromId]);
        removed.push(fromId);
      }
      (await refreshCustomer(deps, state.tenant, id) ? changed : removed).push(id);
    }
  } else if (change.resource === "customerTag") {
    await setCustomerTags(store, state.tenant, await readTags(deps, [id]));
    changed.push(id);
  } else if (change.resource === "tag") {
    changed.push(...(await reconcileTagNames(deps, state.tenant)));
  } else {
    return;
  }
  await updateTenant(store, state.tenant, { lastChangeAt: now() });
  if (removed.length > 0) await announce(deps, { type: "removed", key, tenant: state.tenant, ids: removed });
  if (changed.length > 0) await announce(deps, { type: "changed", key, tenant: state.tenant, ids: changed });
}

/** Each customer's tag names now (getCustomerTags, §4.5); a customer the platform leaves out has none. */
async function readTags(deps: SyncDeps, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const part of batches(ids, deps.batchSize ?? 200)) {
    const answer = (await patient(deps, () => deps.call("customerTags.get", { query: { customerId: part.join(",") } }))) as Record<string, string | null>;
    for (const id of part) out.set(id, answer[id] ? answer[id].split(",").map((n) => n.trim()).filter(Boolean) : []);
  }
  return out;
}

/** Tags per page of `tags.list` (the sandbox's maximum; the platform's is not shown, §8). */
const TAG_PAGE = 1000;

/**
 * A tag renamed (`tag.updated`), merged or deleted (§4.5): the delivery names the tag by id, the
 * merged-away or old name is gone from the platform, and the index keeps names. So every indexed
 * name the platform no longer has is stale, and the customers indexed under it get their tags re-read
 * (a merge's customers then carry the tag that stayed, a rename's the new name).
 */
async function reconcileTagNames(deps: SyncDeps, tenant: number): Promise<string[]> {
  const indexed = await indexedTagNames(deps.store, tenant);
  if (indexed.length === 0) return [];
  const current = new Set<string>();
  for (let page = 1; ; page++) {
    const { rows } = await patient(deps, () => deps.call("tags.list", { query: { rows: TAG_PAGE, page, sidx: "id", sord: "asc" } }));
    for (const row of rows) if (typeof row.name === "string") current.add(row.name);
    if (rows.length < TAG_PAGE) break;
  }
  const stale = indexed.filter((name) => !current.has(name));
  if (stale.length === 0) return [];
  const ids = await customersTagged(deps.store, tenant, stale);
  await setCustomerTags(deps.store, tenant, await readTags(deps, ids));
  return ids;
}

/** Re-reads one customer into the index; false when the platform no longer has it (removed from the index). */
async function refreshCustomer(deps: SyncDeps, tenant: number, id: string): Promise<boolean> {
  const answer = await patient(deps, () => deps.call("customers.list", { query: { select: INDEX_SELECT, idList: id, rows: 1, page: 1 } }));
  const rows = answer.rows as unknown as Customer[];
  if (rows.length === 0) {
    await deleteCustomers(deps.store, tenant, [id]);
    return false;
  }
  await indexCustomers(deps, tenant, rows);
  return true;
}
