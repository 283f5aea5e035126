/** A field the platform (or the app's validation) rejected, with its message. */
export type FieldError = { field: string; message: string };

/**
 * The one error of the app's own API routes, on both sides of the wire: a route throws it and
 * answers `{error: {code, message, fieldErrors?, redirect?, requestId}}` (lib/http/route.ts); the
 * browser reads that answer back into it (browser-fetch.ts). `status` 0 means the request never
 * got an answer.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  readonly requestId: string | undefined;
  /** The answer's `Retry-After` in seconds, when it gives one (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  /** Server side: headers the answer carries besides the usual ones (`Allow`, `WWW-Authenticate`). */
  readonly headers: Record<string, string> | undefined;

  constructor(init: { status: number; code: string; message: string; fieldErrors?: FieldError[]; requestId?: string; retryAfterSeconds?: number; headers?: Record<string, string> }) {
    super(init.message);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.fieldErrors = init.fieldErrors ?? [];
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.headers = init.headers;
  }

  /** Worth retrying automatically: no answer, rate limit, or the platform unreachable. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

/** §5.2.9: the session (or the installation's authorization) is gone; `redirect` authorizes again. */
export class ReauthRequiredError extends ApiError {
  readonly redirect: string;

  constructor(init: { message: string; redirect: string; requestId?: string }) {
    super({ status: 401, code: "reauth_required", message: init.message, requestId: init.requestId });
    this.name = "ReauthRequiredError";
    this.redirect = init.redirect;
  }
}
