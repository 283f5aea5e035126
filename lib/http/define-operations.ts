import "server-only";
import { z } from "zod";
import { isPlatformId } from "@/lib/platform/ids";
import { appRoute, type AppRoute, type AppRouteName } from "./app-routes";

/**
 * How a feature gives its routes of the app's table (`app-routes.ts`) their schemas: a `summary` and
 * zod 4 schemas for `params`, `query`, `body` and `output`, in a module of the feature's own
 * (`lib/shops/shops-operations.ts`: `defineOperations({ "shops.list": { … } })`). The route wrapper
 * parses a request's input with them (`apiRoute({ operation })`), and lib/openapi/app-operations.ts joins
 * every feature's into the one table (the OpenAPI document, the browser client's types). Here, below
 * the features, so a feature needs only lib/http for its own routes.
 *
 * Query schemas take what a URL carries (a parameter given once is a string, repeated an array;
 * `openAppId` names the environment and is taken out before) and typed values alike.
 */

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type AppSchemas = {
  summary: string;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  /** The largest body the route reads, when it is smaller than the app's 1 MiB. */
  bodyLimit?: number;
  /** A file as the body instead of JSON (read by the handler itself): its content type and largest size (the OpenAPI document). */
  upload?: { contentType: string; maxBytes: number };
  /** The answer (JSON routes); a relayed, HTML, redirect or CSV answer is described by its route. */
  output?: z.ZodType;
  /** The success statuses, when not 200 alone (201 created, 202 accepted; a repeated request's 200). */
  statuses?: readonly number[];
};

/** A route of the table with its schemas. */
export type AppOperation<N extends AppRouteName = AppRouteName> = AppRoute & AppSchemas & { name: N };

/** Each named route with its entry of the table and its schemas (a name the table lacks is a type error). */
export type Operations<S> = { [N in keyof S & AppRouteName]: AppOperation<N> & S[N] };

export function defineOperations<S extends { [N in keyof S]: N extends AppRouteName ? AppSchemas : never }>(schemas: S): Operations<S> {
  return Object.fromEntries(Object.entries(schemas).map(([name, entry]) => [name, { ...appRoute(name as AppRouteName), ...(entry as AppSchemas), name }])) as Operations<S>;
}

type Part<O, K extends "params" | "query" | "body", IO extends "in" | "out"> = O extends { [P in K]: infer S extends z.ZodType }
  ? { [P in K]: IO extends "in" ? z.input<S> : z.output<S> }
  : { [P in K]?: never };

/** What the browser sends to an operation: `{ params?, query?, body? }` as its schemas take them. */
export type InputOf<O> = Part<O, "params", "in"> & Part<O, "query", "in"> & Part<O, "body", "in">;
/** What a handler gets: the parsed input. */
export type ParsedOf<O> = Part<O, "params", "out"> & Part<O, "query", "out"> & Part<O, "body", "out">;
/** An operation's JSON answer. */
export type OutputOf<O> = O extends { output: infer S extends z.ZodType } ? z.output<S> : unknown;

// ── pieces the features' schemas share ──────────────────────────────────────────────────────────

/** The JSON answer of a route: its schema describes the wire (OpenAPI), `T` is the feature's own contract type. */
export const answer = <T>(schema: z.ZodType) => schema as unknown as z.ZodType<T>;

export const int = z.number().int();
export const nullableText = z.string().nullable();

/** A path's `{id}`: a platform id. */
export const idParams = z.strictObject({ id: z.string().refine(isPlatformId, "must be an id (digits)").meta({ description: "64-bit id (decimal digits)" }) });

/** A query parameter that may be repeated: one value or several. */
export const repeated = <T extends z.ZodType>(item: T) => z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));

/** A dialog's idempotency key: the same key twice is one refund, shop or group. */
export const requestKey = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "8 to 64 of A-Z a-z 0-9 _ -");
