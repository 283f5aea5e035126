import "server-only";
import { authOperations } from "@/lib/auth/auth-operations";
import { exportOperations } from "@/lib/customers/export-operations";
import { dashboardOperations } from "@/lib/dashboard/dashboard-operations";
import { importOperations } from "@/lib/events/import-operations";
import type { AppOperation, InputOf, OutputOf } from "@/lib/http/define-operations";
import { appRoutes, type AppRouteName } from "@/lib/http/app-routes";
import { mediaOperations } from "@/lib/media/media-operations";
import { refundOperations } from "@/lib/orders/refund-operations";
import { preferencesOperations } from "@/lib/preferences/preferences-operations";
import { proxyOperations } from "@/lib/proxy/proxy-operations";
import { searchOperations } from "@/lib/search/search-operations";
import { shopsOperations } from "@/lib/shops/shops-operations";
import { taskOperations } from "@/lib/tasks/task-operations";
import { webhooksOperations } from "@/lib/webhooks/webhooks-operations";
import { apiOperations } from "./api-operations";

/**
 * The app's own API with its schemas, joined: every feature gives its routes of the list
 * (lib/http/app-routes.ts) their schemas in a module of its own (`defineOperations`,
 * lib/http/define-operations.ts), and this table joins them for the OpenAPI document
 * (`app-openapi.ts`, `GET /api/openapi.json`) and, as types only, for the browser's client
 * (`AppInputOf`, `AppOutputOf`). Each route appears exactly once: a missing name, or a name two
 * features give, is a type error. Handlers use their feature's module, never this one.
 */

/** Every feature's operations: what this table joins. */
export const operationParts = [
  authOperations,
  proxyOperations,
  exportOperations,
  importOperations,
  refundOperations,
  dashboardOperations,
  webhooksOperations,
  searchOperations,
  shopsOperations,
  mediaOperations,
  preferencesOperations,
  taskOperations,
  apiOperations,
] as const;

type KeysOf<T extends readonly object[]> = T[number] extends infer U ? (U extends object ? keyof U : never) : never;
/** The names more than one part gives. */
type Repeated<T extends readonly object[]> = T extends readonly [infer Head extends object, ...infer Rest extends readonly object[]] ? (keyof Head & KeysOf<Rest>) | Repeated<Rest> : never;
type Joined<T extends readonly object[]> = T extends readonly [infer Head extends object, ...infer Rest extends readonly object[]] ? Head & Joined<Rest> : unknown;

type Table = Joined<typeof operationParts>;

// Compile-time: every route of the list has an entry, and no route has two.
// (A name the list lacks is refused by `defineOperations` already.)
type Missing = Exclude<AppRouteName, keyof Table>;
const everyRoute: [Missing] extends [never] ? true : Missing = true;
const noRouteTwice: [Repeated<typeof operationParts>] extends [never] ? true : Repeated<typeof operationParts> = true;
void everyRoute;
void noRouteTwice;

const joined: Record<string, AppOperation> = Object.assign({}, ...operationParts);
/** Every route with its schemas, in the list's order (the document's). */
export const appOperations = Object.fromEntries((Object.keys(appRoutes) as AppRouteName[]).map((name) => [name, joined[name]!])) as { [N in AppRouteName]: Table[N] };

export const appOperationList: AppOperation[] = Object.values(appOperations);

/** What the browser sends to a route: `{ params?, query?, body? }` as its schemas take them. */
export type AppInputOf<N extends AppRouteName> = InputOf<Table[N]>;
/** A route's JSON answer. */
export type AppOutputOf<N extends AppRouteName> = OutputOf<Table[N]>;
