/**
 * The overview's figures as `GET /api/dashboard` answers them (lib/dashboard/server-dashboard.ts
 * computes them; components/dashboard/ shows them). Plain data, no zod: the browser imports it.
 *
 * A figure is either computed (`ok: true`) or says why not (`ok: false`): the overview never shows
 * 0 for a number it could not get.
 */

export type Unavailable = { ok: false; code: string; message: string };
export type Figure<T> = ({ ok: true } & T) | Unavailable;

/** One value of a breakdown (a stage, a source, a gender) and its exact count; `count: null` = that count failed. */
export type Bucket = { key: string; count: number | null };

/**
 * A breakdown of all customers by one field. The platform has no "group by": the values are those
 * found among the latest customers (`sampled` of them), each counted exactly with `customers/count`
 * (§4.1); `other` is the total minus those counts (values not in the sample, or an empty field where
 * the platform cannot filter on it), null when a count failed.
 */
export type Breakdown = { buckets: Bucket[]; other: number | null; sampled: number };

export type DayCount = { day: string; count: number | null };

export type EventsFigure = {
  /** UTC+8 days of the last month, oldest first. */
  days: string[];
  /** Event type ids, most frequent first. */
  types: string[];
  /** `counts[day][type]`. */
  counts: Record<string, Record<string, number>>;
  /** Events read (at most `pageSize` per query, §4.3 / §8). */
  fetched: number;
  pageSize: number;
  /** Every event of the window was read. */
  complete: boolean;
  /** When not complete: the first day whose figures are whole (days before it are partial). */
  completeFrom: string | null;
  /** The first day is cut by the last-month window (§8): its early hours are not returned. */
  firstDayCut: boolean;
};

export type OrdersDay = { day: string; orders: number; amountPaid: string };
export type ProductFigure = { key: string; name: string; amount: string; qty: number };

export type OrdersFigure = {
  days: OrdersDay[];
  topProducts: ProductFigure[];
  /** Orders read / orders the platform says it has (`records`, §4.2). */
  fetched: number;
  records: number;
  complete: boolean;
  completeFrom: string | null;
  firstDayCut: boolean;
  /** Cancelled orders (§3 `已取消`), left out of the figures. */
  cancelled: number;
  /** Amounts the console could not add exactly (more than 2 decimals), left out of the sums. */
  skippedAmounts: number;
  currency: string | null;
};

export type DashboardData = {
  /** When the figures were computed (ISO, UTC). */
  asOf: string;
  /** Platform calls this computation made. */
  calls: number;
  customers: {
    total: Figure<{ value: number }>;
    newPerDay: Figure<{ days: DayCount[] }>;
    byStage: Figure<Breakdown>;
    bySource: Figure<Breakdown>;
    byGender: Figure<Breakdown>;
  };
  events: Figure<EventsFigure>;
  orders: Figure<OrdersFigure>;
};

/** The stage bucket of customers with an empty stage (§4.1 `stage=_empty`). */
export const EMPTY_STAGE = "_empty";
/** Gender keys (§2.1): 1 male, 2 female; "0" = unknown (0 or empty). */
export const GENDER_KEYS = ["1", "2", "0"] as const;

/**
 * The answer of `GET` / `POST /api/dashboard`: the figures, whether they were stored before the
 * request, and since when changes wait that they do not show yet (ISO, UTC; null when none).
 */
export type DashboardAnswer = { data: DashboardData; cached: boolean; staleSince: string | null };
