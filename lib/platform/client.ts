import { Agent, request as undiciRequest } from "undici";
import type { z } from "zod";
import { backoffMs } from "./backoff";
import { PlatformError, readPlatformResponse, type FieldError } from "./errors";
import { stringifyJson } from "./json";
import type { Operation, OperationInput, OperationOutput } from "./operations";
import { operationUrl, type ParsedInput } from "./routes";
import { idFieldsOf, toWire } from "./schema-helpers";

/**
 * The typed platform client: `callPlatform(operations["customers.get"], { params: { id } }, options)`.
 * Input is validated against the operation's schemas, ids go out as JSON integers, the response is
 * parsed losslessly, checked against the output schema (ids become strings) and every failure is a
 * `PlatformError`.
 *
 * Resilience (ARCHITECTURE.md §4): every attempt has a timeout; idempotent reads are retried with
 * exponential backoff and full jitter on network errors, 429, 502, 503 and 504, honouring
 * `Retry-After` (seconds); writes are retried only when the connection was refused (the request
 * provably never reached the platform). When the platform rejects the access token (HTTP 401, or the
 * auth layer's `{error_code, error_description}` body, which the real platform sends with HTTP 200),
 * `getToken({ forceRefresh: true })` is asked for a new one and the call is made once more (the
 * platform did nothing with the rejected call, so this is safe for writes too); once more again if
 * the replacement is refused as well (one active token per app and tenant: another refresh may have
 * superseded it in between), then the auth error goes to the caller (re-authorization).
 */

/** `rejectedToken` (with `forceRefresh`) is the token the platform refused, so a token that another caller already replaced is used instead of refreshing again. */
export type TokenSource = (options: { forceRefresh: boolean; rejectedToken?: string }) => Promise<string>;

export type RetryPolicy = {
  /** Total attempts for a retryable call, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is returned with it. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2_000, maxRetryAfterMs: 5_000 };
export const DEFAULT_TIMEOUT_MS = 10_000;
/** All attempts of one call, waits included, end within this (a browser waiting behind the proxy). */
export const DEFAULT_DEADLINE_MS = 25_000;

export type CallOptions = {
  /** `{base_url}` of the environment (resource API, users/current). */
  apiUrl?: string;
  /** `{auth_url}` (token grants). */
  authUrl?: string;
  /** `{extension_url}` (cloudinfo). */
  extensionUrl?: string;
  /** A token to use; or `getToken`, which also enables refresh-and-retry-once. */
  accessToken?: string;
  getToken?: TokenSource;
  /** Client credentials for the token grants (§4.7). */
  clientCredentials?: { clientId: string; clientSecret: string };
  signal?: AbortSignal;
  /** Per attempt. */
  timeoutMs?: number;
  /** For the whole call, retries included: no retry starts that could not finish in time. */
  deadlineMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Sent upstream as `X-Request-Id` so that logs on both sides line up. */
  requestId?: string;
  /** The input was already parsed by `parseOperationInput` (the proxy): skip re-validation. */
  inputParsed?: boolean;
  /** Only the relayable JSON text is needed (the proxy): `body` of the result stays undefined when it can. */
  relayOnly?: boolean;
  /** Called before each retry (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: PlatformError }) => void;
  transport?: Transport;
  /** Time for the deadline and the waits between retries (tests inject one); attempts time out on real timers. */
  clock?: Clock;
  /** The jitter's randomness, in [0, 1). */
  random?: () => number;
};

export type Clock = { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };

// ── transport ───────────────────────────────────────────────────────────────────────────────────

export type TransportRequest = { method: string; url: string; headers: Record<string, string>; body?: string; signal: AbortSignal };
/** `body`: the raw bytes (the proxy relays them without decoding), or text. */
export type TransportResponse = { status: number; headers: { get(name: string): string | null }; body: Uint8Array | string };
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

/**
 * One keep-alive connection pool per process for every platform origin. Idle sockets are dropped
 * well before the server would close them (2 s margin on its Keep-Alive hint): a write sent on a
 * socket the server is closing fails, and writes are not retried.
 */
const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveTimeoutThreshold: 2_000, keepAliveMaxTimeout: 60_000, connections: 128 });

class HeaderView {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

/** undici's `request`: markedly cheaper per call than `fetch`, which matters for the proxy. */
export const undiciTransport: Transport = async (req) => {
  const res = await undiciRequest(req.url, {
    method: req.method as "GET",
    headers: req.headers,
    body: req.body,
    signal: req.signal,
    dispatcher: agent,
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: new HeaderView(res.headers), body };
};

// ── input ───────────────────────────────────────────────────────────────────────────────────────

/** Body fields are named as the platform names them (`name`, `data.customerId`), like its own fieldErrors; others get their part as prefix (`params.id`, `query.rows`). */
function fieldName(part: string, path: PropertyKey[]): string {
  const names = path.map(String);
  return part === "body" ? names.join(".") || "body" : [part, ...names].join(".");
}

export function issuesToFieldErrors(part: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { field: fieldName(part, issue.path), message: `unknown field(s): ${issue.keys.join(", ")}` };
    }
    return { field: fieldName(part, issue.path), message: issue.message };
  });
}

/**
 * Validates raw input (strings from a URL, JSON from a browser, or typed values) against an
 * operation. Field names in errors are prefixed by the part: `params.id`, `query.rows`, `body.name`.
 */
export function parseOperationInput(op: Operation, input: ParsedInput): { ok: true; value: ParsedInput } | { ok: false; error: PlatformError } {
  const fieldErrors: FieldError[] = [];
  const value: ParsedInput = {};
  const parts = [
    ["params", op.params, input.params ?? {}],
    ["query", op.query, input.query ?? {}],
    ["body", op.body, input.body],
  ] as const;
  for (const [name, schema, raw] of parts) {
    if (!schema) {
      if (name === "body" && raw !== undefined && raw !== null) fieldErrors.push({ field: "body", message: "this operation takes no body" });
      if (name === "query" && Object.keys(raw as object).length > 0) {
        fieldErrors.push({ field: "query", message: `unknown parameter(s): ${Object.keys(raw as object).join(", ")}` });
      }
      continue;
    }
    if (name === "body" && raw === undefined) {
      fieldErrors.push({ field: "body", message: "a JSON body is required" });
      continue;
    }
    const result = schema.safeParse(raw);
    if (result.success) (value as Record<string, unknown>)[name] = result.data;
    else fieldErrors.push(...issuesToFieldErrors(name, result.error));
  }
  if (fieldErrors.length > 0) {
    return {
      ok: false,
      error: new PlatformError({ kind: "validation", code: "invalid_input", message: "the request is not valid", fieldErrors, operation: op.name }),
    };
  }
  return { ok: true, value };
}

// ── request building ────────────────────────────────────────────────────────────────────────────

type IdKeys = { body: ReadonlySet<string>; output: ReadonlySet<string> };
const idKeyCache = new WeakMap<Operation, IdKeys>();
/** Where an operation's ids are, in its body and in its response (derived once from the schemas). */
export function idKeysOf(op: Operation): IdKeys {
  let keys = idKeyCache.get(op);
  if (!keys) {
    keys = { body: idFieldsOf(op.body), output: idFieldsOf(op.output, { includeText: true }) };
    idKeyCache.set(op, keys);
  }
  return keys;
}

function baseUrlOf(op: Operation, options: CallOptions): string {
  const base = op.base === "api" ? options.apiUrl : op.base === "auth" ? options.authUrl : options.extensionUrl;
  if (!base) throw new TypeError(`${op.name}: no ${op.base} URL given`);
  return base.replace(/\/+$/, "");
}

function buildRequest(op: Operation, input: ParsedInput, options: CallOptions, token: string | undefined): Omit<TransportRequest, "signal"> {
  let url = operationUrl(op, input, baseUrlOf(op, options));
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.requestId) headers["x-request-id"] = options.requestId;
  if (op.auth === "query" || op.auth === "bearer") {
    if (!token) throw new TypeError(`${op.name}: an access token is required`);
    // §5.1.1: every /v1 call carries `access_token` as a query parameter, users/current included
    // (the platform's v1 API accepts no other); §4.7 names a bearer token for it, sent beside.
    url += `${url.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(token)}`;
    if (op.auth === "bearer") headers.authorization = `Bearer ${token}`;
  }
  let body: string | undefined;
  if (op.bodyEncoding === "form") {
    const form = new URLSearchParams();
    if (op.auth === "client") {
      if (!options.clientCredentials) throw new TypeError(`${op.name}: client credentials are required`);
      form.set("client_id", options.clientCredentials.clientId);
      form.set("client_secret", options.clientCredentials.clientSecret);
    }
    for (const [key, value] of Object.entries((input.body ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) form.set(key, String(value));
    }
    body = form.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (input.body !== undefined) {
    body = stringifyJson(toWire(input.body, idKeysOf(op).body));
    headers["content-type"] = "application/json";
  }
  return { method: op.method, url, headers, body };
}

// ── execution ───────────────────────────────────────────────────────────────────────────────────

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** A refused token is replaced once, and once more when the replacement is refused too (it may have been superseded meanwhile). */
const MAX_TOKEN_REFRESHES = 2;

function connectionRefused(error: PlatformError): boolean {
  const cause = error.cause as { code?: string; cause?: { code?: string } } | undefined;
  return cause?.code === "ECONNREFUSED" || cause?.cause?.code === "ECONNREFUSED";
}

function isRetryable(op: Operation, error: PlatformError): boolean {
  if (error.kind === "network") return op.idempotent || connectionRefused(error);
  if (!op.idempotent) return false;
  return error.httpStatus !== undefined && RETRYABLE_STATUS.has(error.httpStatus) && error.kind !== "validation";
}

/** The clock of production: `performance.now()` and a timer that the caller's signal cancels. */
export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** `body` has ids as strings; `json` is the same as JSON (null when empty), for relaying. */
export type PlatformResult = { status: number; body: unknown; json: string | Uint8Array | null };

async function attempt(op: Operation, req: Omit<TransportRequest, "signal">, options: CallOptions, transport: Transport, timeoutMs: number): Promise<PlatformResult> {
  // One controller and one cleared timer per attempt: `AbortSignal.timeout`/`any` would keep a
  // timer and listeners alive for the whole timeout after the call ended, per call.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(PlatformError.timeout(timeoutMs));
  }, timeoutMs);
  const caller = options.signal;
  const onCallerAbort = () => controller.abort(caller!.reason);
  if (caller) {
    if (caller.aborted) controller.abort(caller.reason);
    else caller.addEventListener("abort", onCallerAbort, { once: true });
  }
  let res: TransportResponse;
  try {
    res = await transport({ ...req, signal: controller.signal });
  } catch (error) {
    if (caller?.aborted) throw caller.reason;
    if (timedOut) throw PlatformError.timeout(timeoutMs);
    throw PlatformError.network(error);
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", onCallerAbort);
  }
  const tokenCall = op.auth === "query" || op.auth === "bearer";
  const parsed = readPlatformResponse(res.status, res.headers, res.body, idKeysOf(op).output, { relayOnly: options.relayOnly, tokenCall });
  if (!parsed.ok) throw parsed.error;
  return { status: res.status, body: parsed.value, json: parsed.json };
}

/**
 * Sends an already-validated input and returns the status and raw (lossless) response body, with
 * retries and the token refresh. `callPlatform` adds validation of input and output around it.
 */
export async function sendPlatformRequest(op: Operation, input: ParsedInput, options: CallOptions): Promise<PlatformResult> {
  if (op.redirect) throw new TypeError(`${op.name} is a browser redirect: build its URL with operationUrl`);
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = options.clock ?? realClock;
  const deadline = clock.now() + (options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const transport = options.transport ?? undiciTransport;
  const needsToken = op.auth === "query" || op.auth === "bearer";
  let token = needsToken ? (options.accessToken ?? (await options.getToken?.({ forceRefresh: false }))) : undefined;
  let refreshes = 0;
  let req = buildRequest(op, input, options, token);
  for (let n = 0; ; n++) {
    try {
      return await attempt(op, req, options, transport, Math.max(1, Math.min(timeoutMs, Math.floor(deadline - clock.now()))));
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      error.operation = op.name;
      // On a call that carries a token, any auth-kind answer is a refusal of that token.
      if (needsToken && error.kind === "auth" && refreshes < MAX_TOKEN_REFRESHES && options.getToken) {
        refreshes++;
        token = await options.getToken({ forceRefresh: true, rejectedToken: token });
        req = buildRequest(op, input, options, token);
        n--; // the refresh does not use up a retry
        continue;
      }
      if (n + 1 >= policy.maxAttempts || !isRetryable(op, error)) throw error;
      if (error.retryAfterSeconds !== undefined && error.retryAfterSeconds * 1000 > policy.maxRetryAfterMs) throw error;
      // Full jitter: callers that failed together do not retry together.
      const delayMs = backoffMs(n + 1, { baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs, jitter: 1 }, options.random, error.retryAfterSeconds);
      // A retry needs time for the wait and a useful share of an attempt (a quarter of its timeout).
      if (clock.now() + delayMs + Math.min(timeoutMs / 4, 1_000) > deadline) throw error;
      options.onRetry?.({ attempt: n + 1, delayMs, error });
      await clock.sleep(delayMs, options.signal);
    }
  }
}

/** Checks a response against the operation's output schema; ids become strings. */
export function parseOperationOutput<O extends Operation>(op: O, value: unknown): OperationOutput<O> {
  const result = op.output.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0];
    throw PlatformError.invalidResponse(`${op.name}: ${first?.path.join(".") || "body"} ${first?.message ?? "is invalid"}`);
  }
  return result.data as OperationOutput<O>;
}

/** Calls one operation of the table with typed input and output. */
export async function callPlatform<O extends Operation>(op: O, input: OperationInput<O>, options: CallOptions): Promise<OperationOutput<O>> {
  let parsed = input as ParsedInput;
  if (!options.inputParsed) {
    const check = parseOperationInput(op, parsed);
    if (!check.ok) throw check.error;
    parsed = check.value;
  }
  const result = await sendPlatformRequest(op, parsed, options);
  return parseOperationOutput(op, result.body);
}
