import "server-only";
import { ApiError } from "@/lib/http/api-error";
import type { SessionCheck } from "@/lib/auth/session";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps, type RouteLogger } from "@/lib/http/route";
import type { InstallationKey } from "@/lib/store/installations";
import { parseOperationInput, parseOperationOutput, sendPlatformRequest, type CallOptions } from "@/lib/platform/client";
import { installationCallOptions, type InstallationTokens } from "@/lib/platform/installation-call";
import { stringifyAppJson } from "@/lib/platform/json";
import type { Operation } from "@/lib/platform/operations";
import { matchBrowserOperation } from "@/lib/platform/router";
import { proxyOperations } from "./proxy-operations";

/**
 * The server-side API proxy (ARCHITECTURE.md §4 "API proxy"): `/api/platform/v1/<path>` from the browser
 * to the platform of the session's installation. Only operations of the table pass; mutations need
 * a same-origin request with the `X-Engage-Request: 1` header (CSRF); bodies are JSON of at most
 * 1 MiB; input is validated before anything goes upstream; platform tokens never leave the server.
 * Request ids, sessions, CSRF, logging and the error answer are lib/http/route.ts's.
 */

export const PROXY_PREFIX = "/api/platform";

/** What the routes that call the platform for the browser need (the proxy, the CSV export, the event import). */
export type ProxyDeps = Omit<RouteDeps, "requireSession" | "isReauthRequired" | "log"> & {
  /** `lib/auth/session.ts` `requireApiSession`. */
  requireSession(request: Request): Promise<SessionCheck<InstallationKey>>;
  /** `lib/auth/access-token.ts` `getAccessToken`. */
  getAccessToken: InstallationTokens;
  /** True for `ReauthRequiredError`: the installation must authorize again. */
  isReauthRequired(error: unknown): boolean;
  log: RouteLogger;
  /**
   * Check every response against the operation's output schema before relaying it (502 when it does
   * not match). Off by default: the proxy relays the platform's JSON with ids turned into strings in
   * one pass over the text, and typed server code validates through `callPlatform`. Outputs that the
   * schema normalizes (counts) are always parsed.
   */
  validateResponses?: boolean;
  /** Client settings (timeouts, retries, transport) for tests and tuning. */
  client?: Partial<Omit<CallOptions, "apiUrl" | "accessToken" | "getToken">>;
};

export type PlatformRouteContext = RouteContext<ProxyDeps>;

const isEmptyObject = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;

function queryOf(url: URL): Record<string, string> {
  const query = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    // `openAppId` names the session's environment (§5.4.4), read by the session, not a platform parameter.
    if (key === "openAppId") continue;
    if (query.has(key)) throw new ApiError({ status: 422, code: "invalid_input", message: "the request is not valid", fieldErrors: [{ field: `query.${key}`, message: "is given more than once" }] });
    query.set(key, value);
  }
  // Own properties whatever the name (`toString`, `__proto__`): a plain object's assignment would not make them.
  return Object.fromEntries(query);
}

const RELAYABLE_TYPES = new Set(["object", "array", "record", "unknown"]);
/** A response that needs no normalization beyond ids-as-strings (not e.g. a count read from `{count}`). */
function isRelayable(op: Operation): boolean {
  return RELAYABLE_TYPES.has((op.output as { _zod: { def: { type: string } } })._zod.def.type);
}

/**
 * The client options of a platform call made for a browser request: the installation's access token
 * (and a refreshed one when the platform refuses it), the browser's abort signal, the request id, and
 * each retry logged (and counted in the answer's line).
 */
export async function callOptionsFor(ctx: PlatformRouteContext): Promise<CallOptions> {
  const { deps, session: key } = ctx;
  return installationCallOptions(key, deps.getAccessToken, {
    ...deps.client,
    signal: ctx.request.signal,
    requestId: ctx.requestId,
    onRetry: (info) => {
      ctx.fields.retries = info.attempt;
      ctx.log.warn({ ...ctx.fields, attempt: info.attempt, delayMs: info.delayMs, kind: info.error.kind, upstreamStatus: info.error.httpStatus }, "platform call retried");
      deps.client?.onRetry?.(info);
    },
  });
}

/** The operation of the table that a request's method and path name (404, 405 with Allow, 400), before anything else. */
function matchOperation(ctx: PlatformRouteContext): { op: Operation; params: Record<string, string> } {
  const method = ctx.request.method.toUpperCase();
  const path = ctx.url.pathname;
  if (!path.startsWith(`${PROXY_PREFIX}/v1/`)) throw new ApiError({ status: 404, code: "not_found", message: "no such platform operation" });
  const route = matchBrowserOperation(method, path.slice(PROXY_PREFIX.length));
  if (route.kind === "not_found") throw new ApiError({ status: 404, code: "not_found", message: `no such platform operation: ${method} ${path}` });
  if (route.kind === "bad_path") throw new ApiError({ status: 400, code: "invalid_path", message: "the path is not valid" });
  if (route.kind === "method_not_allowed") {
    throw new ApiError({ status: 405, code: "method_not_allowed", message: `use ${route.allow.join(" or ")}`, headers: { allow: route.allow.join(", ") } });
  }
  ctx.fields.op = route.op.name;
  ctx.audit = { operation: route.op.name, resource: route.op.resource };
  return route;
}

/**
 * Operations whose answer is the record as it was before the write: the audit log reads its "before"
 * there at no cost (customers.update, §4.1). Others record the fields they sent.
 */
const ANSWERS_RECORD_BEFORE: ReadonlySet<string> = new Set(["customers.update"]);

/** Handles one browser request to `/api/platform/v1/...`. */
// The four methods share one entry's policy (the table's `platform.*`: the session, CSRF on writes).
export const handleProxyRequest = apiRoute({ name: "platform proxy", operation: proxyOperations["platform.get"], prepare: matchOperation }, async (ctx: PlatformRouteContext, { op, params }) => {
  const query = queryOf(ctx.url);
  let body: unknown;
  if (op.method !== "GET") {
    body = await readJsonBody(ctx.request);
    // An operation without a body accepts an empty object, which some fetch helpers always send.
    if (!op.body && isEmptyObject(body)) body = undefined;
  }
  const input = parseOperationInput(op, { params, query, body });
  ctx.audit = { ...ctx.audit, input: input.ok ? input.value : { params, query, body } };
  if (!input.ok) throw new ApiError({ status: 422, code: "invalid_input", message: input.error.message, fieldErrors: input.error.fieldErrors });

  ctx.fields.retries = 0;
  const result = await sendPlatformRequest(op, input.value, {
    ...(await callOptionsFor(ctx)),
    inputParsed: true,
    relayOnly: !ctx.deps.validateResponses && isRelayable(op),
  });
  if (result.status === 204 || (result.body === null && op.method === "DELETE")) return jsonResponse(204, null, ctx.requestId);
  const status = result.status === 201 ? 201 : 200;
  const relayed = result.json;
  // The audit log's "before" of an edit, where the platform answers the record as it was (§4.1): read after the answer, off its path.
  if (ANSWERS_RECORD_BEFORE.has(op.name)) ctx.audit = { ...ctx.audit, answer: () => (result.body !== undefined ? result.body : relayed === null ? undefined : JSON.parse(typeof relayed === "string" ? relayed : new TextDecoder().decode(relayed))) };
  if (result.body === undefined && relayed !== null) return jsonResponse(status, relayed, ctx.requestId);
  return jsonResponse(status, stringifyAppJson(parseOperationOutput(op, result.body)), ctx.requestId);
});
