import type { InputOf, OutputOf } from "@/lib/platform/operations";
import { apiRoutes, operationUrl, type BrowserOperationName, type ParsedInput } from "@/lib/platform/routes";
import { OPEN_APP_ID_HEADER, storedSession } from "@/lib/auth/client-session";
import { tabStorage } from "@/lib/auth/tab-storage";
import { ApiError, ReauthRequiredError, type FieldError } from "@/lib/http/api-error";
import type { AppInputOf, AppOutputOf } from "@/lib/openapi/app-operations";
import { appRouteUrl, consoleRoutes, type AppInput, type ConsoleRouteName } from "@/lib/http/app-routes";
import { followReauth } from "./reauth";

/**
 * The browser's one way to call the platform: through the app's proxy `/api/platform/v1/...`
 * (ARCHITECTURE.md §4 "API proxy"), addressed by an operation of the zod-free route table
 * `lib/platform/routes.ts` (no schema reaches the bundle).
 * It adds what every call needs: the environment (`X-Open-App-Id`, §5.4.4), the app's CSRF header, the sealed session token where the browser refused the cookie, and it follows the
 * re-authorization redirect of §5.2.9. Ids travel as decimal strings in the app's JSON.
 */

export const PROXY_PREFIX = "/api/platform";
/** The app's own request header: required on every request that carries a session (CSRF; on mutations with Origin / Sec-Fetch-Site). */
export const MUTATION_HEADER = "X-Engage-Request";

type CallOptions = {
  signal?: AbortSignal;
  /** A file as the body, sent as it is with its own type (a route that takes an upload, `upload` in its operation). */
  upload?: Blob;
};

export type BrowserFetchDeps = {
  openAppId: () => string | undefined;
  fetch?: typeof fetch;
  /** The fallback session token of an environment; default: app-auth's tab storage (`storedSession`). */
  sessionToken?: (openAppId: string) => string | undefined;
  /** Where the reauth loop guard lives; default: app-auth's tab storage (sessionStorage or window.name). */
  storage?: () => Pick<Storage, "getItem" | "setItem"> | undefined;
  now?: () => number;
  /** What to do with a reauth redirect; the default navigates the frame (or prompts). */
  onReauth?: (redirect: string) => void;
};

function normalizeFieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): FieldError[] => {
    if (!item || typeof item !== "object") return [];
    const o = item as Record<string, unknown>;
    const field = typeof o.field === "string" ? o.field : typeof o.fieldName === "string" ? o.fieldName : undefined;
    return field ? [{ field, message: typeof o.message === "string" ? o.message : "" }] : [];
  });
}

/** Turns a failed response into an ApiError (or ReauthRequiredError). */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body && typeof body === "object" ? (body as { error?: unknown }).error : undefined) as Record<string, unknown> | undefined;
  const code = error && (typeof error.code === "string" || typeof error.code === "number") ? String(error.code) : `http_${response.status}`;
  const message = error && typeof error.message === "string" && error.message ? error.message : response.statusText || `HTTP ${response.status}`;
  const requestId = error && typeof error.requestId === "string" ? error.requestId : (response.headers.get("x-request-id") ?? undefined);
  if (response.status === 401 && code === "reauth_required" && typeof error?.redirect === "string") {
    return new ReauthRequiredError({ message, redirect: error.redirect, requestId });
  }
  // The proxy writes Retry-After in seconds (the platform's own is turned into seconds).
  const retryAfter = response.headers.get("retry-after")?.trim();
  const retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return new ApiError({ status: response.status, code, message, fieldErrors: normalizeFieldErrors(error?.fieldErrors), requestId, retryAfterSeconds });
}

function defaultStorage(): Pick<Storage, "getItem" | "setItem"> | undefined {
  if (typeof window === "undefined") return undefined;
  return { getItem: (key) => tabStorage.get(key), setItem: (key, value) => tabStorage.set(key, value) };
}

function defaultSessionToken(openAppId: string): string | undefined {
  // Undefined outside a browser: storedSession reads the tab's storage.
  return storedSession(openAppId)?.token;
}

/**
 * The environment (`X-Open-App-Id`, §5.4.4) and, where the browser refused the cookie, the sealed
 * session token as `Authorization: Bearer`: what every request to the app's own API carries.
 */
export function addSessionHeaders(headers: Headers, openAppId: string | undefined, sessionToken: (openAppId: string) => string | undefined = defaultSessionToken): void {
  if (!openAppId) return;
  headers.set(OPEN_APP_ID_HEADER, openAppId);
  const token = sessionToken(openAppId);
  if (token) headers.set("Authorization", `Bearer ${token}`);
}

/** The browser's answer to `401 reauth_required`: navigate to authorization (or prompt), with the tab's loop guard. */
export function reauthInBrowser(redirect: string, storage: () => Pick<Storage, "getItem" | "setItem"> | undefined = defaultStorage, now: () => number = Date.now): void {
  if (typeof window !== "undefined") followReauth(redirect, { location: window.location, storage: storage(), now });
}

/**
 * One request to the app's API with what every request carries (the session headers, the app's
 * CSRF header); a failure is an ApiError, and `401 reauth_required` goes to `onReauth`.
 */
function appRequester(deps: BrowserFetchDeps) {
  const now = deps.now ?? Date.now;
  const storage = deps.storage ?? defaultStorage;
  const sessionToken = deps.sessionToken ?? defaultSessionToken;
  const onReauth = deps.onReauth ?? ((redirect: string) => reauthInBrowser(redirect, storage, now));

  return async function request(method: string, url: string, body: unknown, options: CallOptions): Promise<unknown> {
    const headers = new Headers({ Accept: "application/json" });
    addSessionHeaders(headers, deps.openAppId(), sessionToken);
    // On every request, reads included: the routes refuse a session-bearing request without it (lib/http/route.ts).
    headers.set(MUTATION_HEADER, "1");
    let text: string | Blob | undefined;
    if (options.upload) {
      headers.set("Content-Type", options.upload.type || "application/octet-stream");
      text = options.upload;
    } else if (body !== undefined) {
      headers.set("Content-Type", "application/json");
      text = JSON.stringify(body);
    }

    let response: Response;
    try {
      response = await (deps.fetch ?? fetch)(url, { method, headers, body: text, signal: options.signal, credentials: "same-origin", cache: "no-store" });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiError({ status: 0, code: "network_error", message: error instanceof Error ? error.message : "network error" });
    }

    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (error instanceof ReauthRequiredError) onReauth(error.redirect);
      throw error;
    }
    if (response.status === 204) return undefined;
    const answer = await response.text();
    return answer ? JSON.parse(answer) : undefined;
  };
}

export function createBrowserFetch(deps: BrowserFetchDeps) {
  const request = appRequester(deps);
  return async function call<N extends BrowserOperationName>(name: N, input: InputOf<N>, options: CallOptions = {}): Promise<OutputOf<N>> {
    const route = (apiRoutes as Record<string, { method: string; path: string } | undefined>)[name];
    if (!route) throw new TypeError(`${name} is not callable from the browser`);
    const parsed = input as ParsedInput;
    return (await request(route.method, operationUrl(route, parsed, PROXY_PREFIX), parsed.body, options)) as OutputOf<N>;
  };
}

/**
 * The browser's one way to call the app's own routes: by name in the app's route table
 * (`lib/http/app-routes.ts`, zod-free; input and answer types from `lib/openapi/app-operations.ts`, as types only), with
 * the same headers, CSRF marker and reauth handling as the proxy. `appCall("shops.get", { params: { id } })`.
 */
export function createAppCall(deps: BrowserFetchDeps) {
  const request = appRequester(deps);
  return async function call<N extends ConsoleRouteName>(name: N, input: AppInputOf<N>, options: CallOptions = {}): Promise<AppOutputOf<N>> {
    const parsed = input as AppInput;
    return (await request(consoleRoutes[name].method, appRouteUrl(name, parsed), parsed.body, options)) as AppOutputOf<N>;
  };
}

export type AppCall = ReturnType<typeof createAppCall>;

export type BrowserFetch = ReturnType<typeof createBrowserFetch>;

/** The openAppId of the page: `?openAppId=` in the URL (§5.4.4). */
export function pageOpenAppId(): string | undefined {
  if (typeof window === "undefined") return undefined;
  return new URLSearchParams(window.location.search).get("openAppId") ?? undefined;
}

/** The browser's instances. */
export const platformFetch: BrowserFetch = createBrowserFetch({ openAppId: pageOpenAppId });
export const appCall: AppCall = createAppCall({ openAppId: pageOpenAppId });
