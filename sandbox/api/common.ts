import type { Context, Hono } from "hono";
import { isPlatformId, MAX_ID } from "@/lib/platform/ids";
import { longerThan } from "@/lib/platform/limits";
import type { AuthedVariables } from "../auth/middleware";
import { formatUtc } from "../clock";
import type { EnvironmentConfig } from "../config";
import { publishChange, type ChangeEvent, type SandboxContext } from "../context";
import { readJson, sendJson } from "../http";

export type ApiEnv = { Variables: AuthedVariables };
export type ApiApp = Hono<ApiEnv>;
export type ApiContext = Context<ApiEnv>;
/** Publishes a change of a tenant's data in this environment (delivered as a webhook, §5.5, §6). */
export type Publish = (tenantId: number, resource: ChangeEvent["resource"], action: ChangeEvent["action"], id: bigint | string, data?: Record<string, unknown>) => void;
/** Registers the routes of one resource on the `/v1` app of an environment. */
export type ResourceRoutes = (app: ApiApp, ctx: SandboxContext, publish: Publish) => void;

export function changePublisher(ctx: SandboxContext, env: EnvironmentConfig): Publish {
  return (tenantId, resource, action, id, data) =>
    publishChange(ctx, { environment: env.name, tenantId, resource, action, id: String(id), ...(data ? { data } : {}) });
}

/** A JSON object as read from a body (values of unknown type). */
export type Json = Record<string, unknown>;

/** §2: a 64-bit id, from a JSON integer (number or bigint) or a decimal string; `null` if not one. */
export function parseId(value: unknown): bigint | null {
  if (typeof value === "bigint") return value >= 1n && value <= MAX_ID ? value : null;
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? BigInt(value) : null;
  if (typeof value === "string" && isPlatformId(value.trim())) return BigInt(value.trim());
  return null;
}

/** Comma-separated ids; `null` when any item is not a number. */
export function parseIdList(value: string): bigint[] | null {
  const ids: bigint[] = [];
  for (const part of value.split(",")) {
    if (part.trim() === "") continue;
    const id = parseId(part);
    if (id === null) return null;
    ids.push(id);
  }
  return ids;
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON body as an object, or `undefined` when it is missing, malformed or not an object. */
export async function readObject(c: ApiContext): Promise<Json | undefined> {
  const body = await readJson(c);
  return body.ok && isObject(body.value) ? body.value : undefined;
}

/** `{error: {code, message, fieldErrors?}}` (§7.1), HTTP 200 unless told otherwise. */
export function sendError(c: ApiContext, code: string, message: string, fieldErrors?: unknown[], status = 200): Response {
  return sendJson(c, { error: fieldErrors ? { code, message, fieldErrors } : { code, message } }, status);
}

/** A missing resource: HTTP 404 with an error object (the spec is silent; see sandbox/README.md). */
export function sendNotFound(c: ApiContext, what: string): Response {
  return sendError(c, "404", `${what} not found`, undefined, 404);
}

/** A malformed body (not JSON, or not an object): HTTP 400 error object, nothing changed. */
export function sendBadBody(c: ApiContext): Response {
  return sendError(c, "400", "the request body must be a JSON object", undefined, 400);
}

/** A bad query or body parameter: HTTP 200 error object with `[{fieldName, message}]` (§7.1). */
export function sendFieldError(c: ApiContext, fieldName: string, message: string, code = "400"): Response {
  return sendError(c, code, message, [{ fieldName, message }]);
}

export class QueryError extends Error {
  constructor(
    readonly fieldName: string,
    message: string,
  ) {
    super(message);
  }
}

/** Query parameter readers: they throw `QueryError` on malformed input (turned into an error object). */
export function queryBool(c: ApiContext, name: string, fallback: boolean): boolean {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new QueryError(name, `${name} must be true or false`);
}

export function queryInt(c: ApiContext, name: string, fallback: number, min: number, max: number): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) throw new QueryError(name, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export function queryId(c: ApiContext, name: string): bigint | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  const id = parseId(raw);
  if (id === null) throw new QueryError(name, `${name} should be a number`);
  return id;
}

export function queryRequiredId(c: ApiContext, name: string): bigint {
  const id = queryId(c, name);
  if (id === undefined) throw new QueryError(name, `${name} is required`);
  return id;
}

/** A required query parameter of comma-separated customer ids. */
export function queryCustomerIds(c: ApiContext, name: string): bigint[] {
  const raw = c.req.query(name);
  if (!raw) throw new QueryError(name, `${name} is required`);
  const ids = parseIdList(raw);
  if (ids === null || ids.length === 0) throw new QueryError(name, `${name} must be comma-separated customer ids`);
  return ids;
}

export function querySord(c: ApiContext): "asc" | "desc" {
  const raw = (c.req.query("sord") ?? "asc").toLowerCase();
  if (raw === "" || raw === "asc") return "asc";
  if (raw === "desc") return "desc";
  throw new QueryError("sord", "sord must be asc or desc");
}

export function queryChoice<T extends string>(c: ApiContext, name: string, allowed: Record<string, T>, fallback: T): T {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return fallback;
  const value = allowed[raw];
  if (value === undefined) throw new QueryError(name, `${name} must be one of ${Object.keys(allowed).join(", ")}`);
  return value;
}

/**
 * §2 / §4: timestamp filters are UTC `YYYY-MM-DDTHH:MM:SS` (a trailing `Z`, as §4.3 shows for
 * events, is accepted too). Returns Unix milliseconds.
 */
export function parseUtcTimestamp(raw: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2}))?Z?$/.exec(raw.trim());
  if (!m) return null;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  const back = new Date(ms);
  if (Number.isNaN(ms) || back.getUTCDate() !== +m[3]! || back.getUTCMonth() !== +m[2]! - 1) return null;
  return ms;
}

export function queryTime(c: ApiContext, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  const ms = parseUtcTimestamp(raw);
  if (ms === null) throw new QueryError(name, `${name} must be a UTC time YYYY-MM-DDTHH:MM:SS`);
  return ms;
}

/** The upper bound of a time range: filters are to the second, so "to" covers the whole second. */
export function queryTimeEnd(c: ApiContext, name: string): number | undefined {
  const ms = queryTime(c, name);
  return ms === undefined ? undefined : ms + 999;
}

/** Body timestamps (dateOrder, date, cancelDate…): UTC ISO strings, with or without `Z`/millis. */
export function parseBodyTime(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const plain = parseUtcTimestamp(value);
  if (plain !== null) return plain;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/**
 * Wraps a handler: it is given the caller's tenant (every `/v1` route sees only the data of its
 * token's tenant), and a `QueryError` becomes a `[{fieldName, message}]` error object.
 */
export function handle(fn: (c: ApiContext, tenant: number) => Response | Promise<Response>) {
  return async (c: ApiContext): Promise<Response> => {
    try {
      return await fn(c, c.get("subject").tenantId);
    } catch (error) {
      if (error instanceof QueryError) return sendFieldError(c, error.fieldName, error.message);
      throw error;
    }
  };
}

/**
 * `handle` for a route whose JSON body comes first: a missing, malformed or non-object body is
 * answered by `badBody` (HTTP 400 by default) and changes nothing.
 */
export function handleBody(fn: (c: ApiContext, body: Json, tenant: number) => Response | Promise<Response>, badBody: (c: ApiContext) => Response = sendBadBody) {
  return handle(async (c, tenant) => {
    const body = await readObject(c);
    return body ? fn(c, body, tenant) : badBody(c);
  });
}

export const utc = (ms: number | bigint | null | undefined): string | null =>
  ms === null || ms === undefined ? null : formatUtc(Number(ms));

/** §8 "only the last month": orders and events dated from one calendar month before now. */
export function lastMonthStart(nowMs: number): number {
  const d = new Date(nowMs);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.getTime();
}

/** `text` is a string longer than `max` characters (code points, as the platform counts, §8). */
export function tooLong(text: unknown, max: number): boolean {
  return typeof text === "string" && longerThan(text, max);
}

/** Empty-ish values (§2: absent or empty fields come back as `null`). */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

