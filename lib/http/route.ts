import "server-only";
import { randomUUID } from "node:crypto";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
// Types only: the wrapper sits below app-auth (whose own routes use it) and is given the session lookup.
import type { ConsoleSession, SessionCheck } from "@/lib/auth/session";
import { logger } from "@/lib/log";
import { issuesToFieldErrors } from "@/lib/platform/client";
import { PlatformError, type PlatformErrorKind } from "@/lib/platform/errors";
import { appRouteUrl, needsAppHeader, pathParamsOf } from "./app-routes";
import { outcomeOf, recordAudit, type AuditNote } from "./audit-hook";
import { readJsonBody } from "./body";
import type { AppOperation, ParsedOf } from "./define-operations";
import { requestProblem } from "./request-guard";
import { API_SECURITY_HEADERS } from "./security-headers";

/**
 * The one wrapper of the app's own API routes (the platform proxy, the CSV export, the event
 * import, activity, the session, webhooks). In one place, for each request: its id (`X-Request-Id`),
 * the CSRF check and the session (the policy of its entry in the app's route table,
 * lib/http/app-routes.ts), its input parsed with the schemas its feature gave it (define-operations.ts; any
 * schema failure is `422 invalid_input` with `fieldErrors`, here and nowhere else), one log line
 * for the answer, and every error mapped once to one
 * JSON shape `{error: {code, message, fieldErrors?, redirect?, requestId}}` with `Cache-Control:
 * no-store` (lib/http/api-error.ts reads it back in the browser). A handler throws `ApiError` to
 * refuse; a platform error keeps its kind's status; anything else is a 500, logged as an error.
 */

const CSRF_HEADER = "x-engage-request";

export type RouteLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type RouteDeps = {
  /** Default: the app's logger, scoped by the route's `scope`. */
  log?: RouteLogger;
  /**
   * The request's session, required by routes with `session` (app-auth's `requireApiSession`, or a
   * stand-in in tests): given by the caller, so the wrapper sits below app-auth, whose own routes use it.
   */
  requireSession?: (request: Request) => Promise<SessionCheck<{ openAppId: string }>>;
  /** Origins allowed to send mutations besides the request's own (the app's public `APP_URL`). */
  appOrigins?: readonly string[];
  /** True for an error that means the installation must authorize again (app-auth's `ReauthRequiredError`). */
  isReauthRequired?: (error: unknown) => boolean;
  /** Where the front end goes to authorize again (§5.2.9). */
  reauthRedirect?: (openAppId: string) => string;
};

type SessionOf<D> = D extends { requireSession: (request: Request) => Promise<SessionCheck<infer S>> } ? S : ConsoleSession;

/** The fields of every log line of a request; a handler adds its own (they go into the answer's line). */
export type LogFields = { requestId: string; method: string; path: string; op?: string; [field: string]: unknown };

/** What the handler of a route of the table gets as `input` (its parsed params, query and body). */
export type RouteInput<O extends AppOperation | undefined> = [O] extends [AppOperation] ? ParsedOf<O> : unknown;

/** A handler's context; `I` is its parsed input (`RouteContext<Deps, RouteInput<(typeof shopsOperations)["shops.list"]>>`). */
export type RouteContext<D extends RouteDeps, I = unknown> = {
  readonly request: Request;
  readonly url: URL;
  readonly requestId: string;
  readonly deps: D;
  readonly log: RouteLogger;
  readonly fields: LogFields;
  readonly started: number;
  /** The request's session (routes with `session`). */
  session: SessionOf<D>;
  /** The input parsed with the route's schemas (`operation`). */
  input: I;
  /** What the handler adds to the request's audit entry (its targets, the fields it changed; `skip`). */
  audit?: AuditNote;
};

export type RouteOptions<D extends RouteDeps, P, O extends AppOperation | undefined = undefined> = {
  /** The message of the answer's log line; `<name> failed` logs an unexpected error. */
  name: string;
  /**
   * The route's entry of the app's table with its schemas (its feature's `xOperations[name]`): its access
   * (session or public) and CSRF policy, and the schemas that parse the input it hands the handler.
   */
  operation?: O;
  /** `op` of the log lines; default: the operation's name. */
  op?: string;
  /** The logger's scope when the deps bring no logger. */
  scope?: string;
  /** Before the CSRF and session checks (the proxy's 404 for a path outside its table); its result goes to the handler. */
  prepare?: (ctx: RouteContext<D, RouteInput<O>>) => P;
  /** The answer is a stream whose end the handler logs: only refusals are logged here. */
  streams?: boolean;
  /** An unexpected error is a 503 with Retry-After and this message (the caller retries later), not a 500. */
  unavailable?: string;
};

export type ApiRoute<D> = (request: Request, deps: D) => Promise<Response>;

/** A route of the app's API: `handler` runs after the shared steps; what it throws is answered as the one error. */
export function apiRoute<D extends RouteDeps, O extends AppOperation | undefined = undefined, P = undefined>(
  options: RouteOptions<D, P, O>,
  handler: (ctx: RouteContext<D, RouteInput<O>>, prepared: P) => Promise<Response>,
): ApiRoute<D> {
  const operation = options.operation as AppOperation | undefined;
  const csrf = operation?.csrf ?? "writes";
  const session = operation?.access === "session";
  return async (request, deps) => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const url = new URL(request.url);
    const fields: LogFields = { requestId, method: request.method, path: url.pathname, op: options.op ?? operation?.name };
    const log = deps.log ?? logger().child({ scope: options.scope });
    const ctx: RouteContext<D, RouteInput<O>> = { request, url, requestId, deps, log, fields, started, session: undefined as SessionOf<D>, input: undefined as never };
    let response: Response;
    let reason: string | undefined;
    try {
      // The edge's rules once more for a caller that is not behind the Node server's guard (tests, another server).
      const guard = requestProblem(request.method, request.url);
      if (guard) throw new ApiError({ ...guard, fieldErrors: guard.field ? [{ field: guard.field, message: guard.message }] : [] });
      const prepared = options.prepare?.(ctx) as P;
      if (needsAppHeader({ csrf, access: session ? "session" : "public" }, request.method)) {
        // A session route's GET is checked by the app's header (a cross-site page cannot send it).
        const problem = csrfProblem(request, url, deps.appOrigins ?? [], request.method === "GET" && csrf !== "always");
        if (problem) throw new ApiError({ status: 403, code: "csrf_rejected", message: problem });
      }
      if (session) {
        if (!deps.requireSession) throw new Error(`${options.name}: a route with a session needs deps.requireSession`);
        const check = await deps.requireSession(request);
        if (!check.ok) throw check.error;
        ctx.session = check.session as SessionOf<D>;
      }
      if (operation) ctx.input = (await parseInput(operation, request, url)) as never;
      response = await handler(ctx, prepared);
    } catch (error) {
      const failure = apiErrorOf(error, ctx, options.unavailable);
      if (failure.log) Object.assign(fields, failure.log);
      if (failure.unexpected) log.error({ ...fields, err: errorField(error) }, `${options.name} failed`);
      response = errorResponse(failure.error, requestId);
      reason = `${failure.error.code}: ${failure.error.message}`;
    }
    if (request.method !== "GET" && operation?.audit !== "never") auditWrite(ctx, operation, response.status, reason);
    if (!options.streams || response.status >= 300) {
      const line = { ...fields, status: response.status, ms: Math.round((performance.now() - started) * 10) / 10 };
      if (response.status >= 500) log.warn(line, options.name);
      else log.info(line, options.name);
    }
    return response;
  };
}

/**
 * Every write of a tenant's console, done or not, goes to the audit log (lib/http/audit-hook.ts): who
 * (the session's staff key), the operation, what the input names, the outcome and its reason. A
 * request refused before its session was known (CSRF, no sign-in) belongs to no tenant and is not
 * recorded here; a handler without a session (the authorization flow) names the tenant itself.
 */
function auditWrite(ctx: RouteContext<RouteDeps, unknown>, operation: AppOperation | undefined, status: number, reason: string | undefined): void {
  const note = ctx.audit;
  if (note?.skip) return;
  const session = ctx.session as Partial<ConsoleSession> | undefined;
  const key = note?.key ?? (session?.openAppId && session.tenantId ? { openAppId: session.openAppId, tenantId: session.tenantId } : undefined);
  if (!key) return;
  recordAudit({
    key,
    actor: note?.actor ?? { id: session?.userId ?? "", name: session?.userName ?? null },
    operation: note?.operation ?? operation?.name ?? ctx.fields.op ?? "unknown",
    method: ctx.request.method,
    resource: note?.resource ?? operation?.resource ?? "unknown",
    at: Date.now(),
    status,
    outcome: outcomeOf(status),
    ...(reason ? { reason } : {}),
    requestId: ctx.requestId,
    input: note?.input ?? ctx.input,
    ...(note?.targets ? { targets: note.targets } : {}),
    ...(note?.changes ? { changes: note.changes } : {}),
    ...(note?.answer ? { answer: note.answer } : {}),
  });
}

/** The environment's name travels beside the input (§5.4.4), never as part of it. */
const ENVIRONMENT_PARAM = "openAppId";

/** The query as a record: a parameter given once is a string, repeated an array; `openAppId` left out. */
function queryRecord(searchParams: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    if (key === ENVIRONMENT_PARAM) continue;
    const all = searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/**
 * The one place a request's input meets its schemas. A path that names nothing is a 404; a query
 * or body that fails its schema is `422 invalid_input` with `fieldErrors` (body fields by their
 * names, `name`, `shopIds.2`; others with their part, `query.limit`), which the console's form
 * hook puts on its fields. A body that is not JSON stays a 400 (`invalid_json`, body.ts): it is
 * not a schema failure.
 */
async function parseInput(operation: AppOperation, request: Request, url: URL): Promise<{ params?: unknown; query?: unknown; body?: unknown }> {
  const input: { params?: unknown; query?: unknown; body?: unknown } = {};
  const fieldErrors: { field: string; message: string }[] = [];
  if (operation.params) {
    const params = operation.params.safeParse(pathParamsOf(operation.path, url.pathname) ?? {});
    if (!params.success) throw new ApiError({ status: 404, code: "not_found", message: `no such ${operation.resource}: ${params.error.issues[0]?.message ?? "not found"}` });
    input.params = params.data;
  }
  if (operation.query) {
    const query = operation.query.safeParse(queryRecord(url.searchParams));
    if (query.success) input.query = query.data;
    else fieldErrors.push(...issuesToFieldErrors("query", query.error));
  }
  if (operation.body) {
    const raw = await readJsonBody(request, { limit: operation.bodyLimit });
    if (raw === undefined) fieldErrors.push({ field: "body", message: "a JSON body is required" });
    else {
      const body = operation.body.safeParse(raw);
      if (body.success) input.body = body.data;
      else fieldErrors.push(...issuesToFieldErrors("body", body.error));
    }
  }
  if (fieldErrors.length > 0) throw new ApiError({ status: 422, code: "invalid_input", message: "the request is not valid", fieldErrors });
  return input;
}

/** A route as the App Router calls it (`export const GET = withDeps(...)`): the deps are read per request, never at build time. */
export function withDeps<D>(route: ApiRoute<D>, deps: D | (() => D)): (request: Request) => Promise<Response> {
  return (request) => route(request, typeof deps === "function" ? (deps as () => D)() : deps);
}

/** The caller's `X-Request-Id` when it looks sane (8 to 64 of `A-Z a-z 0-9 . _ -`), else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
}

/**
 * CSRF defence: the custom header (a cross-site form cannot set it, and a cross-site fetch with it
 * needs a CORS preflight that this app never grants) AND a same-origin request by `Sec-Fetch-Site`
 * or `Origin`. A session-bearing GET (`read`) needs the header and no sign of another origin: a
 * same-origin GET has no `Origin`, and an older browser no `Sec-Fetch-Site`.
 */
function csrfProblem(request: Request, url: URL, appOrigins: readonly string[], read = false): string | undefined {
  if (request.headers.get(CSRF_HEADER) !== "1") return `the ${CSRF_HEADER} header is required`;
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return "cross-site requests are refused";
  const origin = request.headers.get("origin");
  if (origin) return origin === url.origin || appOrigins.includes(origin) ? undefined : "cross-origin requests are refused";
  return site === "same-origin" || read ? undefined : "the request's origin is unknown";
}

// Static, so they cost nothing per request: the root proxy.ts does not run for the platform proxy.
const JSON_HEADERS = { ...API_SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" };

/** A JSON answer of the app's API: never cached, with the request id. */
export function jsonResponse(status: number, body: string | Uint8Array | null, requestId: string, extra?: Record<string, string>): Response {
  // Bytes as they are: encoding a large string again would cost more than the rest of the relay.
  const init = typeof body === "string" || body === null ? body : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return new Response(init, { status, headers: { ...JSON_HEADERS, "x-request-id": requestId, ...extra } });
}

/** The one error answer: `{error: {code, message, fieldErrors?, redirect?, requestId}}`, `Retry-After` in seconds. */
function errorResponse(error: ApiError, requestId: string): Response {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.fieldErrors.length > 0) body.fieldErrors = error.fieldErrors;
  if (error instanceof ReauthRequiredError) body.redirect = error.redirect;
  body.requestId = requestId;
  const headers = error.retryAfterSeconds === undefined ? error.headers : { ...error.headers, "retry-after": String(error.retryAfterSeconds) };
  return jsonResponse(error.status, JSON.stringify({ error: body }), requestId, headers);
}

const PLATFORM_STATUS: Record<PlatformErrorKind, number> = {
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

const defaultReauthRedirect = (openAppId: string) => appRouteUrl("auth.start", { query: { openAppId } });

/**
 * Any error as the browser is told of it: an `ApiError` as it is; the installation's authorization
 * gone (or refused by the platform even with a fresh token) is `401 reauth_required` with the
 * redirect of §5.2.9; a platform error keeps its kind's status; a request the browser cancelled is
 * 499; anything else is `unexpected` (500, or 503 with `unavailable`). `log`: fields for the line.
 */
export function apiErrorOf(
  error: unknown,
  ctx: { request: Request; deps: RouteDeps; session: { openAppId: string } },
  unavailable?: string,
): { error: ApiError; log?: Record<string, unknown>; unexpected?: true } {
  if (error instanceof ApiError) return { error };
  const { deps } = ctx;
  const reauth = (message: string) => new ReauthRequiredError({ message, redirect: (deps.reauthRedirect ?? defaultReauthRedirect)(ctx.session.openAppId) });
  if (deps.isReauthRequired?.(error)) return { error: reauth("Sign-in required: authorize again to continue.") };
  if (error instanceof PlatformError) {
    if (error.kind === "auth") return { error: reauth("The platform refused the app's authorization; authorize again."), log: { upstreamCode: error.code } };
    const { code, message, fieldErrors, retryAfterSeconds } = error;
    return { error: new ApiError({ status: PLATFORM_STATUS[error.kind], code, message, fieldErrors, retryAfterSeconds }), log: { kind: error.kind, upstreamStatus: error.httpStatus } };
  }
  if (ctx.request.signal.aborted) return { error: new ApiError({ status: 499, code: "client_closed", message: "the request was cancelled" }) };
  const failed = unavailable
    ? new ApiError({ status: 503, code: "unavailable", message: unavailable, retryAfterSeconds: 5 })
    : new ApiError({ status: 500, code: "internal_error", message: "the request could not be completed" });
  return { error: failed, unexpected: true };
}

/** An error as a log field: its name and message only (its other properties may hold a token). */
export const errorField = (error: unknown) => (error instanceof Error ? { name: error.name, message: error.message } : String(error));
