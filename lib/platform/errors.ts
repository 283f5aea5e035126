import { quoteIds, quoteIdsInBytes, type ScanInfo } from "./json-ids";

/**
 * One typed error for every way the platform says no (§7, ARCHITECTURE.md §4 "Errors from the platform"):
 * - `{error: {code, message, fieldErrors}}`, mostly with HTTP 200 (§7.1); `code` a string or a number;
 *   `fieldErrors` an array of `{fieldName, message}`, an array of `{field: message}` objects, or one
 *   object from field name to message;
 * - plain-text HTTP 400 bodies (§7.3);
 * - `{error_code, error_description}` (§7.4, and the sandbox's answer to a bad token: HTTP 401
 *   `invalid_token` / `expired_token`);
 * - what the real platform sends beyond the spec (docs/decisions/real-platform-answers.md; recorded in `testing/recorded-answers.ts`):
 *   `error_code` 40201 (often HTTP 500) for a missing or deleted resource, an auth-layer
 *   `{error_code, error_description}` with HTTP 200 for a bad token, `error_code: 0` as a success
 *   marker, C0002 field errors whose message is JSON text, a §7.3 text sent as a JSON string;
 * - transport failures (network, timeout) and responses that are not what the operation returns.
 */

export type PlatformErrorKind =
  /** The request was refused as invalid (400 texts, 400001, 401011, fieldErrors, our own checks). */
  | "validation"
  /** The thing does not exist (HTTP 404, 409200 "Not found", 400005 open id/union id not found). */
  | "not_found"
  /** The access token was missing, invalid or expired (HTTP 401, `error_code`). */
  | "auth"
  /** The token is valid but may not do this (HTTP 403). */
  | "forbidden"
  /** HTTP 429. */
  | "rate_limited"
  /** Any other business error object from the platform. */
  | "rejected"
  /** HTTP 5xx, or a response that is not what the operation returns. */
  | "upstream"
  /** The platform could not be reached. */
  | "network"
  /** No answer in time. */
  | "timeout";

/** What is read from response headers (a fetch `Headers` or a view of undici's). */
export type HeaderReader = { get(name: string): string | null };

export type FieldError = { field: string; message: string };

export type PlatformErrorInit = {
  kind: PlatformErrorKind;
  code: string;
  message: string;
  httpStatus?: number;
  fieldErrors?: FieldError[];
  /** The platform said the access token expired: refresh and try once more. */
  tokenExpired?: boolean;
  /** Seconds from a `Retry-After` header (429/503). */
  retryAfterSeconds?: number;
  operation?: string;
  cause?: unknown;
};

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly code: string;
  readonly httpStatus: number | undefined;
  readonly fieldErrors: FieldError[];
  readonly tokenExpired: boolean;
  readonly retryAfterSeconds: number | undefined;
  operation: string | undefined;

  constructor(init: PlatformErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "PlatformError";
    this.kind = init.kind;
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.fieldErrors = init.fieldErrors ?? [];
    this.tokenExpired = init.tokenExpired ?? false;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.operation = init.operation;
  }

  static network(cause: unknown): PlatformError {
    const detail = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    return new PlatformError({ kind: "network", code: "network_error", message: `the platform could not be reached: ${redact(detail)}`, cause });
  }

  static timeout(ms: number): PlatformError {
    return new PlatformError({ kind: "timeout", code: "timeout", message: `the platform did not answer within ${ms} ms` });
  }

  static invalidResponse(detail: string, httpStatus?: number): PlatformError {
    return new PlatformError({ kind: "upstream", code: "invalid_response", message: `the platform's response was not understood: ${redact(detail)}`, httpStatus });
  }
}

/**
 * The platform refused the request (HTTP 4xx, or an error in its answer, e.g. a refused grant):
 * the same request will not succeed later. Any other failure (network, timeout, 5xx, an answer not
 * understood) means it was unavailable: try again later.
 */
export function isRefusal(error: unknown): error is PlatformError {
  return error instanceof PlatformError && error.kind !== "network" && error.kind !== "timeout" && error.kind !== "upstream";
}

const MAX_MESSAGE = 500;

/** Tokens must never reach a log or a browser, even echoed back inside an upstream message. */
export function redact(text: string): string {
  return text
    .replace(/((?:access|refresh)_token|code|hmac|secret|client_secret|token)=[^&\s"']+/gi, "$1=[redacted]")
    .replace(/\b(at|rt)_[A-Za-z0-9_-]{16,}/g, "[redacted]")
    .slice(0, MAX_MESSAGE);
}

/**
 * Error codes the spec names (§7.2) whose meaning is not "invalid input", and the real platform's
 * 40201 ("permission is not enough"), its answer for a missing or deleted resource by id.
 */
const NOT_FOUND_CODES = new Set(["409200", "400005", "40201"]);
/** The real platform's field errors of create-with-identities: `message` is the JSON text of `[{field, message}]`. */
const JSON_MESSAGE_CODES = new Set(["C0002"]);
const VALIDATION_CODES = new Set(["400001", "401011"]);

function kindForStatus(status: number): PlatformErrorKind {
  // A redirect or an informational answer from an API is not something the caller can act on.
  if (status < 400) return "upstream";
  if (status === 401) return "auth";
  if (status === 403) return "forbidden";
  if (status === 404 || status === 410) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "upstream";
  if (status === 400 || status === 413 || status === 422) return "validation";
  return "rejected";
}

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return undefined;
}

/** Every `fieldErrors` shape of §7.1 as `[{field, message}]`. */
export function normalizeFieldErrors(value: unknown): FieldError[] {
  const out: FieldError[] = [];
  const fromObject = (o: Record<string, unknown>) => {
    const named = asText(o.fieldName) ?? asText(o.field);
    if (named !== undefined) {
      out.push({ field: named, message: asText(o.message) ?? asText(o.defaultMessage) ?? "is invalid" });
      return;
    }
    for (const [field, message] of Object.entries(o)) out.push({ field, message: asText(message) ?? "is invalid" });
  };
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item && typeof item === "object") fromObject(item as Record<string, unknown>);
      else if (typeof item === "string") out.push({ field: "", message: item });
    }
  } else if (value && typeof value === "object") {
    fromObject(value as Record<string, unknown>);
  }
  return out.map((e) => ({ field: e.field, message: redact(e.message) }));
}

function retryAfter(headers: HeaderReader | undefined): number | undefined {
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  // §: `Retry-After` is in seconds (ARCHITECTURE.md §4); an HTTP date is read as well.
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** C0002's message, `[{"field":"email","message":"…"}]` as text: its field errors, or none when it is not that. */
function fieldErrorsInMessage(message: string | undefined): FieldError[] {
  const text = message?.trim() ?? "";
  if (!text.startsWith("[") && !text.startsWith("{")) return [];
  try {
    return normalizeFieldErrors(JSON.parse(text)).filter((e) => e.field !== "");
  } catch {
    return [];
  }
}

function fromErrorObject(error: Record<string, unknown>, status: number, headers: HeaderReader | undefined): PlatformError {
  const code = asText(error.code) ?? String(status);
  let fieldErrors = normalizeFieldErrors(error.fieldErrors);
  let message = redact(asText(error.message) ?? `the platform refused the request (code ${code})`);
  if (fieldErrors.length === 0 && (JSON_MESSAGE_CODES.has(code) || /^\s*\[\s*\{/.test(message))) {
    const inMessage = fieldErrorsInMessage(asText(error.message));
    if (inMessage.length > 0) {
      fieldErrors = inMessage;
      message = redact(inMessage.map((e) => `${e.field}: ${e.message}`).join("; "));
    }
  }
  let kind: PlatformErrorKind;
  if (NOT_FOUND_CODES.has(code)) kind = "not_found";
  else if (status >= 300) kind = kindForStatus(status);
  else if (/^not found$/i.test(message)) kind = "not_found";
  else if (VALIDATION_CODES.has(code) || fieldErrors.length > 0) kind = "validation";
  else kind = "rejected";
  return new PlatformError({ kind, code, message, httpStatus: status, fieldErrors, retryAfterSeconds: retryAfter(headers) });
}

function fromOAuthError(body: Record<string, unknown>, status: number, headers: HeaderReader | undefined, tokenCall: boolean): PlatformError {
  const code = asText(body.error_code) ?? asText(body.error) ?? String(status);
  const message = redact(asText(body.error_description) ?? asText(body.message) ?? code);
  const tokenExpired = code === "expired_token";
  // Token and grant failures mean "authorize again", whatever the status (users/current, §7.4; token endpoint).
  const authCode = /token|unauthori[sz]ed|invalid_client|invalid_grant/i.test(code);
  let kind: PlatformErrorKind;
  // 40201 with HTTP 500: the real platform's "no such resource" (a deleted customer), not a failure to retry.
  if (NOT_FOUND_CODES.has(code)) kind = "not_found";
  // A call that carries a token and gets the auth layer's `{error_code, error_description}` (the
  // real platform answers a bad or superseded token so, with HTTP 200 and an undocumented code):
  // the token was refused. Resource errors come as `{error: {...}}` (§7.1), never in this shape.
  else if (authCode || (tokenCall && "error_code" in body)) kind = "auth";
  else kind = status >= 300 ? kindForStatus(status) : "rejected";
  return new PlatformError({ kind, code, message, httpStatus: status, tokenExpired, retryAfterSeconds: retryAfter(headers) });
}

/** Is `{error: {...}}` really an error? Store deletion answers success as `{error: {message: "success"}}` (§7.5). */
function isSuccessMarker(error: Record<string, unknown>): boolean {
  const code = asText(error.code);
  return asText(error.message)?.toLowerCase() === "success" && (code === undefined || code === "0" || code === "200");
}

/**
 * `value` is the body with ids as strings; `json` is the same as JSON (ids quoted), ready to relay
 * to the browser; `null` for an empty body (HTTP 204).
 */
export type ParsedResponse = { ok: true; value: unknown; json: string | Uint8Array | null } | { ok: false; error: PlatformError };

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
function firstByte(bytes: Uint8Array): number | undefined {
  for (const b of bytes) if (!WHITESPACE.has(b)) return b;
  return undefined;
}

/**
 * Reads a platform response (`raw`: the body as bytes or text): the body on success, or the one
 * `PlatformError` for any failure shape. Integers under `idKeys`, and every integer beyond 2^53,
 * become decimal strings (lossless).
 */
export function readPlatformResponse(
  status: number,
  headers: HeaderReader | undefined,
  raw: string | Uint8Array,
  idKeys?: ReadonlySet<string>,
  options: { relayOnly?: boolean; tokenCall?: boolean } = {},
): ParsedResponse {
  const tokenCall = options.tokenCall ?? false;
  // The proxy's fast path: a 2xx object or array, well nested, with no error keys at the top, is
  // relayed as bytes without decoding or building it (`value` is then undefined).
  if (options.relayOnly && typeof raw !== "string" && status >= 200 && status < 300) {
    const first = firstByte(raw);
    if (first === 0x7b || first === 0x5b) {
      const info: ScanInfo = { balanced: false, topLevelKeys: [] };
      const json = quoteIdsInBytes(raw, idKeys, info);
      if (info.balanced && !info.topLevelKeys.includes("error") && !info.topLevelKeys.includes("error_code")) return { ok: true, value: undefined, json };
    }
  }
  const text = typeof raw === "string" ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8");
  const trimmed = text.trim();
  let body: unknown = undefined;
  let json: string | null = null;
  let isJson = false;
  if (trimmed === "") {
    body = null;
    isJson = true;
  } else if (
    trimmed.startsWith("{") ||
    trimmed.startsWith("[") ||
    /json/i.test(headers?.get("content-type") ?? "") ||
    /^(-?\d+(\.\d+)?|true|false|null)$/.test(trimmed)
  ) {
    try {
      json = quoteIds(trimmed, idKeys);
      body = JSON.parse(json);
      isJson = true;
    } catch {
      isJson = false;
    }
  }

  const record = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const errorField = record?.error;

  if (status >= 200 && status < 300) {
    if (!isJson) return { ok: false, error: PlatformError.invalidResponse("the body is not JSON", status) };
    if (errorField && typeof errorField === "object" && !Array.isArray(errorField) && !isSuccessMarker(errorField as Record<string, unknown>)) {
      return { ok: false, error: fromErrorObject(errorField as Record<string, unknown>, status, headers) };
    }
    // The real platform marks a good token answer with `error_code: 0` beside `access_token`.
    const errorCode = record?.error_code;
    const failed = errorCode !== null && errorCode !== undefined && asText(errorCode) !== "0";
    if (record && (failed || (typeof errorField === "string" && errorField !== ""))) {
      return { ok: false, error: fromOAuthError(record, status, headers, tokenCall) };
    }
    return { ok: true, value: body, json };
  }

  if (errorField && typeof errorField === "object" && !Array.isArray(errorField)) {
    return { ok: false, error: fromErrorObject(errorField as Record<string, unknown>, status, headers) };
  }
  if (record && ("error_code" in record || typeof errorField === "string")) {
    return { ok: false, error: fromOAuthError(record, status, headers, tokenCall) };
  }
  // §7.3: plain-text bodies (e.g. "No customer field found") carry the message as is; the real
  // platform may send that text as a JSON string literal (`"No customer field found"`).
  const textBody = !isJson ? trimmed : typeof body === "string" ? body.trim() : "";
  const message = textBody ? redact(textBody) : `the platform answered HTTP ${status}`;
  return {
    ok: false,
    error: new PlatformError({ kind: kindForStatus(status), code: String(status), message, httpStatus: status, retryAfterSeconds: retryAfter(headers) }),
  };
}
