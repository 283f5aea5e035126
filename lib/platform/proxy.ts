import "server-only";
import { randomUUID } from "node:crypto";
import { parseOperationInput, parseOperationOutput, sendPlatformRequest, type CallOptions } from "./client";
import { PlatformError, type FieldError, type PlatformErrorKind } from "./errors";
import { parseJson, stringifyAppJson } from "./json";
import type { Operation } from "./operations";
import { matchBrowserOperation } from "./router";

/**
 * The server-side API proxy (DESIGN.md §4 "API proxy"): `/api/platform/v1/<path>` from the browser
 * to the platform of the session's installation. Only operations of the table pass; mutations need
 * a same-origin request with the `X-Engage-Request: 1` header (CSRF); bodies are JSON of at most
 * 1 MiB; input is validated before anything goes upstream; platform tokens never leave the server.
 * Every response carries `X-Request-Id` and `Cache-Control: no-store`; every error is
 * `{error: {code, message, fieldErrors?, requestId}}` with a meaningful status.
 */

export const PROXY_PREFIX = "/api/platform";
export const CSRF_HEADER = "x-engage-request";
export const MAX_BODY_BYTES = 1024 * 1024;

export type InstallationKey = { openAppId: string; tenantId: string };

export type ProxyLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type ProxyDeps = {
  /** `lib/auth/session.ts` `requireApiSession`. */
  requireSession(request: Request): Promise<{ ok: true; session: InstallationKey } | { ok: false; response: Response }>;
  /** `lib/auth/access-token.ts` `getAccessToken`. */
  getAccessToken(key: InstallationKey, options?: { forceRefresh?: boolean; rejectedAccessToken?: string }): Promise<{ accessToken: string; apiUrl: string }>;
  /** True for `ReauthRequiredError`: the installation must authorize again. */
  isReauthRequired(error: unknown): boolean;
  /** Where the front end goes to authorize again (§5.2.9): app-auth's `startUrl`. */
  reauthRedirect?: (openAppId: string) => string;
  log: ProxyLogger;
  /** Origins allowed to send mutations besides the request's own (the app's public `APP_URL`). */
  appOrigins?: readonly string[];
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

const ERROR_STATUS: Record<PlatformErrorKind, number> = {
  validation: 422,
  not_found: 404,
  auth: 401,
  forbidden: 403,
  rate_limited: 429,
  rejected: 422,
  upstream: 502,
  network: 502,
  timeout: 504,
};

const BASE_HEADERS = {
  "cache-control": "no-store",
  "content-type": "application/json; charset=utf-8",
  "x-content-type-options": "nosniff",
};

export function jsonResponse(status: number, body: string | Uint8Array | null, requestId: string, extra?: Record<string, string>): Response {
  // Bytes as they are: encoding a large string again would cost more than the rest of the relay.
  const init = typeof body === "string" || body === null ? body : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return new Response(init, { status, headers: { ...BASE_HEADERS, "x-request-id": requestId, ...extra } });
}

export function errorResponse(
  requestId: string,
  status: number,
  code: string,
  message: string,
  extra: { fieldErrors?: FieldError[]; redirect?: string; headers?: Record<string, string> } = {},
): Response {
  const error: Record<string, unknown> = { code, message };
  if (extra.fieldErrors && extra.fieldErrors.length > 0) error.fieldErrors = extra.fieldErrors;
  if (extra.redirect) error.redirect = extra.redirect;
  error.requestId = requestId;
  return jsonResponse(status, JSON.stringify({ error }), requestId, extra.headers);
}

/** Where the front end goes to authorize again (§5.2.9), unless the deps say otherwise. */
function defaultReauthRedirect(openAppId: string): string {
  return `/api/auth/start?openAppId=${encodeURIComponent(openAppId)}`;
}

export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
}

/**
 * CSRF defence for mutations: the custom header (a cross-site form cannot set it, and a cross-site
 * fetch with it needs a CORS preflight that this app never grants) AND a same-origin request by
 * `Sec-Fetch-Site` or `Origin`.
 */
export function csrfProblem(request: Request, url: URL, appOrigins: readonly string[]): string | undefined {
  if (request.headers.get(CSRF_HEADER) !== "1") return `the ${CSRF_HEADER} header is required`;
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return "cross-site requests are refused";
  const origin = request.headers.get("origin");
  if (origin) {
    if (origin !== url.origin && !appOrigins.includes(origin)) return "cross-origin requests are refused";
    return undefined;
  }
  return site === "same-origin" ? undefined : "the request's origin is unknown";
}

/**
 * Who is asking, for every app route that calls the platform for the browser (the proxy, the CSV
 * export, the event import): with `csrf`, the CSRF check first (403); then the session of the
 * `X-Open-App-Id` environment, from the cookie or the fallback bearer session token (its own 401
 * answer, with the request id).
 */
export async function authenticate(
  request: Request,
  url: URL,
  requestId: string,
  deps: Pick<ProxyDeps, "requireSession" | "appOrigins">,
  options: { csrf: boolean },
): Promise<{ ok: true; key: InstallationKey } | { ok: false; response: Response }> {
  if (options.csrf) {
    const problem = csrfProblem(request, url, deps.appOrigins ?? []);
    if (problem) return { ok: false, response: errorResponse(requestId, 403, "csrf_rejected", problem) };
  }
  const auth = await deps.requireSession(request);
  if (!auth.ok) {
    const headers = new Headers(auth.response.headers);
    headers.set("x-request-id", requestId);
    headers.set("cache-control", "no-store");
    return { ok: false, response: new Response(auth.response.body, { status: auth.response.status, headers }) };
  }
  return { ok: true, key: { openAppId: auth.session.openAppId, tenantId: auth.session.tenantId } };
}

/** Refuses bytes that are not UTF-8 (a decode without `stream` keeps no state between calls). */
const utf8Strict = new TextDecoder("utf-8", { fatal: true });

type BodyRead = { ok: true; value: unknown } | { ok: false; response: Response };

/**
 * The JSON body of a browser request to one of the app's API routes: at most 1 MiB (413), UTF-8
 * (400), `Content-Type: application/json` (415), valid JSON (400), parsed losslessly; an empty body
 * is `undefined`.
 */
export async function readJsonBody(request: Request, requestId: string): Promise<BodyRead> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) {
    return { ok: false, response: errorResponse(requestId, 413, "payload_too_large", `the body is larger than ${MAX_BODY_BYTES} bytes`) };
  }
  let text = "";
  if (request.body) {
    const reader = request.body.getReader();
    // The pieces are kept and decoded once at the end: one flat string for JSON.parse, rather than
    // a decode and a concatenation per piece (an event batch is ~25 KB in several pieces).
    const pieces: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > MAX_BODY_BYTES) {
          await reader.cancel();
          return { ok: false, response: errorResponse(requestId, 413, "payload_too_large", `the body is larger than ${MAX_BODY_BYTES} bytes`) };
        }
        pieces.push(value);
      }
      text = utf8Strict.decode(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, size));
    } catch {
      return { ok: false, response: errorResponse(requestId, 400, "invalid_body", "the body is not valid UTF-8 text") };
    }
  }
  if (text.trim() === "") return { ok: true, value: undefined };
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    return { ok: false, response: errorResponse(requestId, 415, "unsupported_media_type", "the body must be JSON (Content-Type: application/json)") };
  }
  try {
    return { ok: true, value: parseJson(text) };
  } catch {
    return { ok: false, response: errorResponse(requestId, 400, "invalid_json", "the body is not valid JSON") };
  }
}

const isEmptyObject = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;

function queryOf(url: URL): { ok: true; value: Record<string, string> } | { ok: false; field: string } {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    // `openAppId` names the session's environment (§5.4.4), read by the session, not a platform parameter.
    if (key === "openAppId") continue;
    if (key in query) return { ok: false, field: key };
    query[key] = value;
  }
  return { ok: true, value: query };
}

const RELAYABLE_TYPES = new Set(["object", "array", "record", "unknown"]);
/** A response that needs no normalization beyond ids-as-strings (not e.g. a count read from `{count}`). */
function isRelayable(op: Operation): boolean {
  return RELAYABLE_TYPES.has((op.output as { _zod: { def: { type: string } } })._zod.def.type);
}

/**
 * The client options of a platform call made for a browser request: the installation's access token
 * (and a refreshed one when the platform refuses it), the browser's abort signal, the request id, and
 * each retry logged.
 */
export async function callOptionsFor(key: InstallationKey, request: Request, requestId: string, deps: ProxyDeps, logBase: object): Promise<CallOptions> {
  const first = await deps.getAccessToken(key);
  return {
    ...deps.client,
    apiUrl: first.apiUrl,
    accessToken: first.accessToken,
    getToken: async ({ forceRefresh, rejectedToken }) => (await deps.getAccessToken(key, { forceRefresh, rejectedAccessToken: rejectedToken })).accessToken,
    signal: request.signal,
    requestId,
    onRetry: (info) => logRetry(deps, logBase, info),
  };
}

function logRetry(deps: ProxyDeps, logBase: object, info: Parameters<NonNullable<CallOptions["onRetry"]>>[0]): void {
  deps.log.warn({ ...logBase, attempt: info.attempt, delayMs: info.delayMs, kind: info.error.kind, upstreamStatus: info.error.httpStatus }, "platform call retried");
  deps.client?.onRetry?.(info);
}

/**
 * Logs a route's answer once, as a warning from 500 up, with the milliseconds since `started`, and
 * returns it; `logBase` is read when the answer is logged.
 */
export function answerLogger(log: ProxyLogger, logBase: object, message: string, started = performance.now()) {
  return (response: Response, extra: Record<string, unknown> = {}): Response => {
    const line = { ...logBase, status: response.status, ms: Math.round((performance.now() - started) * 10) / 10, ...extra };
    if (response.status >= 500) log.warn(line, message);
    else log.info(line, message);
    return response;
  };
}

/** An error as a log field: its name and message only (its other properties may hold a token). */
export const errorField = (error: unknown) => (error instanceof Error ? { name: error.name, message: error.message } : String(error));

/** Handles one browser request to `/api/platform/v1/...`. */
export async function handleProxyRequest(request: Request, deps: ProxyDeps): Promise<Response> {
  const requestId = requestIdOf(request);
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const logBase: { requestId: string; method: string; path: string; op?: string } = { requestId, method, path: url.pathname };

  const finish = answerLogger(deps.log, logBase, "platform proxy");

  if (!url.pathname.startsWith(`${PROXY_PREFIX}/v1/`)) {
    return finish(errorResponse(requestId, 404, "not_found", "no such platform operation"));
  }
  const route = matchBrowserOperation(method, url.pathname.slice(PROXY_PREFIX.length));
  if (route.kind === "not_found") return finish(errorResponse(requestId, 404, "not_found", `no such platform operation: ${method} ${url.pathname}`));
  if (route.kind === "bad_path") return finish(errorResponse(requestId, 400, "invalid_path", "the path is not valid"));
  if (route.kind === "method_not_allowed") {
    return finish(errorResponse(requestId, 405, "method_not_allowed", `use ${route.allow.join(" or ")}`, { headers: { allow: route.allow.join(", ") } }));
  }
  const op = route.op;
  logBase.op = op.name;

  const auth = await authenticate(request, url, requestId, deps, { csrf: method !== "GET" });
  if (!auth.ok) return finish(auth.response);
  const key = auth.key;

  const query = queryOf(url);
  if (!query.ok) {
    return finish(errorResponse(requestId, 422, "invalid_input", "the request is not valid", { fieldErrors: [{ field: `query.${query.field}`, message: "is given more than once" }] }));
  }
  let body: unknown;
  if (method !== "GET") {
    const read = await readJsonBody(request, requestId);
    if (!read.ok) return finish(read.response);
    // An operation without a body accepts an empty object, which some fetch helpers always send.
    body = !op.body && isEmptyObject(read.value) ? undefined : read.value;
  }

  const input = parseOperationInput(op, { params: route.params, query: query.value, body });
  if (!input.ok) {
    return finish(errorResponse(requestId, 422, "invalid_input", input.error.message, { fieldErrors: input.error.fieldErrors }));
  }

  try {
    let attempts = 0;
    const result = await sendPlatformRequest(op, input.value, {
      ...(await callOptionsFor(key, request, requestId, deps, logBase)),
      inputParsed: true,
      relayOnly: !deps.validateResponses && isRelayable(op),
      onRetry: (info) => {
        attempts = info.attempt;
        logRetry(deps, logBase, info);
      },
    });
    if (result.status === 204 || (result.body === null && op.method === "DELETE")) return finish(jsonResponse(204, null, requestId), { retries: attempts });
    const status = result.status === 201 ? 201 : 200;
    if (result.body === undefined && result.json !== null) return finish(jsonResponse(status, result.json, requestId), { retries: attempts });
    const output = parseOperationOutput(op, result.body);
    return finish(jsonResponse(status, stringifyAppJson(output), requestId), { retries: attempts });
  } catch (error) {
    const failure = platformFailure(error, request, requestId, key, deps);
    if (failure.unexpected) deps.log.error({ ...logBase, err: errorField(error) }, "platform proxy failed");
    return finish(failure.response, failure.log);
  }
}

/** A failed platform call as the browser is told of it: the HTTP status and the `error` object. */
export type BrowserFailure = { status: number; code: string; message: string; fieldErrors?: FieldError[]; redirect?: string; retryAfterSeconds?: number };

/**
 * The error answer for a failed platform call, the same for every route that calls the platform
 * for the browser (the proxy, the CSV export, the event import): a refused authorization is
 * `401 reauth_required` with the redirect of §5.2.9, a platform error keeps its kind's status,
 * anything else is a 500 (`unexpected`: the caller logs it). `failure` is the same as data.
 */
export function platformFailure(
  error: unknown,
  request: Request,
  requestId: string,
  key: InstallationKey,
  deps: Pick<ProxyDeps, "isReauthRequired" | "reauthRedirect">,
): { response: Response; failure: BrowserFailure; log?: Record<string, unknown>; unexpected?: true } {
  const { failure, log, unexpected } = failureOf(error, request, key, deps);
  const headers: Record<string, string> = {};
  if (failure.retryAfterSeconds !== undefined) headers["retry-after"] = String(failure.retryAfterSeconds);
  const response = errorResponse(requestId, failure.status, failure.code, failure.message, { fieldErrors: failure.fieldErrors, redirect: failure.redirect, headers });
  return { response, failure, log, unexpected };
}

function failureOf(
  error: unknown,
  request: Request,
  key: InstallationKey,
  deps: Pick<ProxyDeps, "isReauthRequired" | "reauthRedirect">,
): { failure: BrowserFailure; log?: Record<string, unknown>; unexpected?: true } {
  const reauthRedirect = deps.reauthRedirect ?? defaultReauthRedirect;
  if (deps.isReauthRequired(error)) {
    return { failure: { status: 401, code: "reauth_required", message: "Sign-in required: authorize again to continue.", redirect: reauthRedirect(key.openAppId) } };
  }
  if (error instanceof PlatformError) {
    if (error.kind === "auth") {
      // The platform refused even a fresh token: only a new authorization can help.
      return {
        failure: { status: 401, code: "reauth_required", message: "The platform refused the app's authorization; authorize again.", redirect: reauthRedirect(key.openAppId) },
        log: { upstreamCode: error.code },
      };
    }
    return {
      failure: { status: ERROR_STATUS[error.kind], code: error.code, message: error.message, fieldErrors: error.fieldErrors, retryAfterSeconds: error.retryAfterSeconds },
      log: { kind: error.kind, upstreamStatus: error.httpStatus },
    };
  }
  if (request.signal.aborted) return { failure: { status: 499, code: "client_closed", message: "the request was cancelled" } };
  return { failure: { status: 500, code: "internal_error", message: "the request could not be completed" }, unexpected: true };
}
