import { runBounded } from "@/lib/batch/bulk-run";
import { minorOf, formatMinor } from "@/lib/orders/money";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { InputOf } from "@/lib/platform/operations";
import { LIMITS } from "@/lib/platform/limits";
import { parsePlatformTime } from "@/lib/time";
import { EMPTY_STAGE, type Breakdown, type Bucket, type DashboardData, type DayCount, type EventsFigure, type Figure, type OrdersFigure, type ProductFigure, type Unavailable } from "./dashboard-data";
import { homeDayOf, lastHomeDays, lastMonthHomeDays, type HomeDay } from "./home-days";

/**
 * The overview's figures for one tenant, from the platform's own answers (§4.1 counts, §4.2
 * orders, §4.3 events). Pure apart from `call`, so tests give it a sandbox or a fake.
 *
 * The call budget is fixed by the plan, whatever the tenant's size: 1 total + 30 daily counts +
 * 1 sample + at most 9 stage, 8 source and 2 gender counts + at most EVENT_PAGES event queries +
 * at most ORDER_PAGES order pages = at most CALL_BUDGET calls, CONCURRENCY at a time.
 */

export const NEW_CUSTOMER_DAYS = 30;
/** Customers read to find which stages and sources exist (the platform has no "group by"). */
export const SAMPLE_ROWS = 1000;
/** Values per breakdown counted exactly; the rest is "other". */
export const MAX_BREAKDOWN_VALUES = 8;
/** Event queries per computation, each at the §8 maximum of 1000 events. */
export const EVENT_PAGES = 20;
export const ORDER_PAGES = 20;
export const ORDER_ROWS = 1000;
export const TOP_PRODUCTS = 5;
export const CONCURRENCY = 4;
export const CALL_BUDGET = 1 + NEW_CUSTOMER_DAYS + 1 + (MAX_BREAKDOWN_VALUES + 1) + MAX_BREAKDOWN_VALUES + 2 + EVENT_PAGES + ORDER_PAGES;

const CANCELLED = "已取消";

function unavailable(error: unknown): Unavailable {
  const e = error as { code?: unknown; kind?: unknown; message?: unknown };
  const code = typeof e?.kind === "string" ? e.kind : typeof e?.code === "string" ? e.code : "failed";
  return { ok: false, code, message: typeof e?.message === "string" ? e.message : "failed" };
}

/** The platform's count answer as a number (the body format is not shown, §4.1; the schema reads the shapes met). */
const countOf = (value: unknown): number => {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new Error("count: not a number");
  return value;
};

/** The values of `field` in a sample, most frequent first, at most `limit`; empty values left out. */
export function valuesOf(rows: readonly Record<string, unknown>[], field: string, limit: number): string[] {
  const seen = new Map<string, number>();
  for (const row of rows) {
    const value = row[field];
    if (typeof value !== "string" || value === "") continue;
    seen.set(value, (seen.get(value) ?? 0) + 1);
  }
  return [...seen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit).map(([value]) => value);
}

/** `other` = total − the exact counts; null when the total or a count is unknown. */
export function breakdownOf(total: number | undefined, buckets: Bucket[], sampled: number): Breakdown {
  const known = buckets.every((b) => b.count !== null) && total !== undefined;
  const sum = buckets.reduce((s, b) => s + (b.count ?? 0), 0);
  return { buckets: buckets.sort((a, b) => (b.count ?? -1) - (a.count ?? -1)), other: known ? Math.max(0, total - sum) : null, sampled };
}

/** Days after the day of `cutoffMs` are whole (everything from the cutoff on was read). */
function completeFromDay(days: readonly HomeDay[], cutoffMs: number): string | null {
  const cutDay = homeDayOf(cutoffMs);
  const index = days.findIndex((d) => d.day === cutDay);
  if (index < 0) return days[0]?.day ?? null;
  // The cutoff at a day's very first second leaves that day whole too.
  if (days[index]!.startMs === cutoffMs) return cutDay;
  return days[index + 1]?.day ?? null;
}

/** How whole a walked figure is: complete, else from which day (the oldest record read), and whether the window cuts its first day. */
function coverage(days: readonly HomeDay[], complete: boolean, oldestMs: number, windowStartMs: number) {
  return {
    complete,
    completeFrom: complete ? null : Number.isFinite(oldestMs) ? completeFromDay(days, oldestMs) : null,
    firstDayCut: days[0]!.startMs < windowStartMs,
  };
}

/**
 * Events of the last month per UTC+8 day and type (§4.3). The query returns at most 1000 events
 * (§8) and no count, so the walk reads newest first by id (`sidx=id&sord=desc`, `idTo` = the last id
 * read − 1) until a page is short (all read) or EVENT_PAGES queries were made. An event is recorded
 * after it happens (its `date` is not after its `lastUpdated`), so everything dated from the oldest
 * recorded time read onwards was read: the days after that one are whole, earlier days partial.
 */
export async function eventsFigure(call: PlatformCall, nowMs: number): Promise<EventsFigure> {
  const { days, windowStartMs } = lastMonthHomeDays(nowMs);
  const dayNames = new Set(days.map((d) => d.day));
  const counts: Record<string, Record<string, number>> = {};
  const totals = new Map<string, number>();
  const pageSize = LIMITS.eventQueryMax;
  let fetched = 0;
  let cursor: bigint | undefined;
  let oldestRecorded = Infinity;
  let complete = false;
  for (let page = 0; page < EVENT_PAGES; page++) {
    const input = { max: pageSize, sidx: "id", sord: "desc" as const, ...(cursor !== undefined ? { idTo: String(cursor) } : {}) };
    const rows = (await call("events.list", { query: input } as InputOf<"events.list">)) as unknown as { id: string; event?: string | null; date?: string | null; lastUpdated?: string | null }[];
    for (const row of rows) {
      fetched += 1;
      const recorded = parsePlatformTime(row.lastUpdated) ?? parsePlatformTime(row.date);
      if (recorded !== undefined) oldestRecorded = Math.min(oldestRecorded, recorded);
      const at = parsePlatformTime(row.date);
      if (at === undefined || !row.event) continue;
      const day = homeDayOf(at);
      if (!dayNames.has(day)) continue;
      const perType = (counts[day] ??= {});
      perType[row.event] = (perType[row.event] ?? 0) + 1;
      totals.set(row.event, (totals.get(row.event) ?? 0) + 1);
    }
    if (rows.length < pageSize) {
      complete = true;
      break;
    }
    const last = BigInt(rows.at(-1)!.id);
    // A platform that ignores idTo would give the same page forever: stop, partial.
    if (cursor !== undefined && last > cursor) break;
    cursor = last - 1n;
  }
  const types = [...totals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([type]) => type);
  return {
    days: days.map((d) => d.day),
    types,
    counts,
    fetched,
    pageSize,
    ...coverage(days, complete, oldestRecorded, windowStartMs),
  };
}

type OrderRow = { orderNo?: string | null; dateOrder?: string | null; amountPaid?: unknown; state?: string | null; currency?: string | null; lines?: OrderLineRow[] | null };
type OrderLineRow = { productId?: string | null; skuId?: string | null; productName?: string | null; qty?: number | null; priceUnit?: unknown; priceSubTotal?: unknown; priceSubPaid?: unknown };

/** What a line brought in: its paid subtotal, else its subtotal, else unit price × qty (§2.4). */
export function lineAmountMinor(line: OrderLineRow): bigint | undefined {
  const paid = minorOf(line.priceSubPaid) ?? minorOf(line.priceSubTotal);
  if (paid !== undefined) return paid;
  const unit = minorOf(line.priceUnit);
  return unit !== undefined && typeof line.qty === "number" ? unit * BigInt(line.qty) : undefined;
}

/**
 * Orders of the last month (§2.4, §4.2) per UTC+8 day with the amount paid, and the products that
 * brought in most. Pages of `GET /deals` newest first (`sidx=dateOrder&sord=desc`) until `records`
 * are read or ORDER_PAGES pages were; days after the oldest order read are whole. Cancelled orders
 * (§3 `已取消`) are left out. A platform that returns fewer rows than asked (its maximum is not shown,
 * §8) is paged in its own page size from then on.
 */
export async function ordersFigure(call: PlatformCall, nowMs: number): Promise<OrdersFigure> {
  const { days, windowStartMs } = lastMonthHomeDays(nowMs);
  const perDay = new Map(days.map((d) => [d.day, { orders: 0, minor: 0n }]));
  const products = new Map<string, { name: string; minor: bigint; qty: number }>();
  const seen = new Set<string>();
  let rowsPerPage = ORDER_ROWS;
  let records = 0;
  let fetched = 0;
  let cancelled = 0;
  let skippedAmounts = 0;
  let oldest = Infinity;
  let currency: string | null = null;
  let complete = false;
  for (let page = 0; page < ORDER_PAGES; page++) {
    const answer = (await call("deals.list", { query: { rows: rowsPerPage, page: Math.floor(fetched / rowsPerPage) + 1, sidx: "dateOrder", sord: "desc" } } as InputOf<"deals.list">)) as unknown as { records?: number; rows: OrderRow[] };
    if (page === 0) {
      records = answer.records ?? 0;
      if (answer.rows.length > 0 && answer.rows.length < rowsPerPage && answer.rows.length < records) rowsPerPage = answer.rows.length;
    }
    for (const order of answer.rows) {
      fetched += 1;
      const key = order.orderNo ?? `#${fetched}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const at = parsePlatformTime(order.dateOrder);
      if (at === undefined) continue;
      oldest = Math.min(oldest, at);
      if (order.state === CANCELLED) {
        cancelled += 1;
        continue;
      }
      const bucket = perDay.get(homeDayOf(at));
      if (!bucket) continue;
      currency ??= order.currency ?? null;
      bucket.orders += 1;
      const paid = minorOf(order.amountPaid);
      if (paid === undefined) skippedAmounts += 1;
      else bucket.minor += paid;
      for (const line of order.lines ?? []) {
        const productKey = line.productId || line.skuId || line.productName;
        if (!productKey) continue;
        const amount = lineAmountMinor(line);
        if (amount === undefined) {
          skippedAmounts += 1;
          continue;
        }
        const product = products.get(productKey) ?? { name: line.productName || productKey, minor: 0n, qty: 0 };
        product.minor += amount;
        product.qty += line.qty ?? 0;
        products.set(productKey, product);
      }
    }
    if (answer.rows.length === 0 || fetched >= records) {
      complete = true;
      break;
    }
  }
  const topProducts: ProductFigure[] = [...products.entries()]
    .sort((a, b) => (b[1].minor > a[1].minor ? 1 : b[1].minor < a[1].minor ? -1 : a[0] < b[0] ? -1 : 1))
    .slice(0, TOP_PRODUCTS)
    .map(([key, p]) => ({ key, name: p.name, amount: formatMinor(p.minor), qty: p.qty }));
  return {
    days: days.map((d) => ({ day: d.day, orders: perDay.get(d.day)!.orders, amountPaid: formatMinor(perDay.get(d.day)!.minor) })),
    topProducts,
    fetched,
    records,
    ...coverage(days, complete, oldest, windowStartMs),
    cancelled,
    skippedAmounts,
    currency,
  };
}

const settle = async <T extends object>(work: () => Promise<T>): Promise<Figure<T>> => {
  try {
    return { ok: true, ...(await work()) };
  } catch (error) {
    return unavailable(error);
  }
};

/** Counts one bucket; a failed count is `null` (that bucket says so), not 0. */
type CountTask = { query: InputOf<"customers.count">["query"]; done: (count: number | null) => void };

/** Every figure of the overview; `calls` counts the platform calls made. */
export async function computeDashboard(platform: PlatformCall, nowMs: number): Promise<DashboardData> {
  let calls = 0;
  const call: PlatformCall = (name, input) => {
    calls += 1;
    if (calls > CALL_BUDGET) throw new Error(`call budget of ${CALL_BUDGET} exceeded`);
    return platform(name, input);
  };
  const count = async (query: CountTask["query"]) => countOf(await call("customers.count", { query } as InputOf<"customers.count">));

  // Phase 1: the total and a sample of the latest customers (which stages and sources exist).
  const [totalResult, sampleResult] = await Promise.allSettled([
    count({}),
    call("customers.list", { query: { rows: SAMPLE_ROWS, sidx: "id", sord: "desc", select: "id,stage,source" } } as InputOf<"customers.list">),
  ]);
  const total = totalResult.status === "fulfilled" ? totalResult.value : undefined;
  const sample = sampleResult.status === "fulfilled" ? ((sampleResult.value as { rows: Record<string, unknown>[] }).rows ?? []) : undefined;

  // Phase 2: every count and the two walks, CONCURRENCY at a time (the walks each hold one slot).
  const days = lastHomeDays(nowMs, NEW_CUSTOMER_DAYS);
  const newPerDay: DayCount[] = days.map((d) => ({ day: d.day, count: null }));
  const stageBuckets: Bucket[] = sample ? [...valuesOf(sample, "stage", MAX_BREAKDOWN_VALUES), EMPTY_STAGE].map((key) => ({ key, count: null })) : [];
  const sourceBuckets: Bucket[] = sample ? valuesOf(sample, "source", MAX_BREAKDOWN_VALUES).map((key) => ({ key, count: null })) : [];
  const genderBuckets: Bucket[] = [{ key: "1", count: null }, { key: "2", count: null }];
  const tasks: CountTask[] = [
    ...days.map((d, i) => ({ query: { dateCreatedFrom: d.fromUtc, dateCreatedTo: d.toUtc }, done: (n: number | null) => void (newPerDay[i]!.count = n) })),
    ...stageBuckets.map((b) => ({ query: { stage: b.key }, done: (n: number | null) => void (b.count = n) })),
    ...sourceBuckets.map((b) => ({ query: { source: b.key }, done: (n: number | null) => void (b.count = n) })),
    ...genderBuckets.map((b) => ({ query: { gender: Number(b.key) }, done: (n: number | null) => void (b.count = n) })),
  ] as CountTask[];
  let events: Figure<EventsFigure> = { ok: false, code: "failed", message: "not computed" };
  let orders: Figure<OrdersFigure> = { ok: false, code: "failed", message: "not computed" };
  type Work = () => Promise<void>;
  const work: Work[] = [
    async () => void (events = await settle(() => eventsFigure(call, nowMs))),
    async () => void (orders = await settle(() => ordersFigure(call, nowMs))),
    ...tasks.map((task) => async () => task.done(await count(task.query).catch(() => null))),
  ];
  await runBounded(work, (run) => run(), { concurrency: CONCURRENCY });

  const failedSample = (): Unavailable => unavailable(sampleResult.status === "rejected" ? sampleResult.reason : undefined);
  const allFailed = (buckets: Bucket[]) => buckets.length > 0 && buckets.every((b) => b.count === null);
  const breakdown = (buckets: Bucket[]): Figure<Breakdown> =>
    allFailed(buckets) ? { ok: false, code: "failed", message: "counts failed" } : { ok: true, ...breakdownOf(total, buckets, sample?.length ?? 0) };
  // Gender: unknown (0 or empty, §2.1) = total − male − female, so empty genders are counted too.
  const [male, female] = genderBuckets;
  const unknownGender = total !== undefined && male!.count !== null && female!.count !== null ? Math.max(0, total - male!.count - female!.count) : null;
  return {
    asOf: new Date(nowMs).toISOString(),
    calls,
    customers: {
      total: total !== undefined ? { ok: true, value: total } : unavailable(totalResult.status === "rejected" ? totalResult.reason : undefined),
      newPerDay: newPerDay.every((d) => d.count === null) ? { ok: false, code: "failed", message: "counts failed" } : { ok: true, days: newPerDay },
      byStage: sample ? breakdown(stageBuckets) : failedSample(),
      bySource: sample ? breakdown(sourceBuckets) : failedSample(),
      byGender: allFailed(genderBuckets) ? { ok: false, code: "failed", message: "counts failed" } : { ok: true, buckets: [...genderBuckets, { key: "0", count: unknownGender }], other: 0, sampled: 0 },
    },
    events,
    orders,
  };
}
