import { queryOptions } from "@tanstack/react-query";
import { operations, platformKeys, type InputOf, type OperationName, type OutputOf } from "./operations";
import { operationUrl, type ParsedInput } from "./url";

/**
 * The console's way to the platform: calls `/api/platform/v1/...` (never the platform itself) for
 * an operation of the table, with the CSRF header, and turns the proxy's error body into a
 * `ProxyError`. Ids are strings in requests and responses. Safe for the browser and for server
 * components that call the app over HTTP (no tokens here).
 */

export const PROXY_BASE = "/api/platform";
/** Must match `CSRF_HEADER` of lib/platform/proxy.ts. */
export const CSRF_HEADER_NAME = "X-Engage-Request";
/** §5.4.4: the environment of the call; read by app-auth's `requireApiSession`. */
export const OPEN_APP_ID_HEADER_NAME = "X-Open-App-Id";

export type ProxyFieldError = { field: string; message: string };

export class ProxyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: ProxyFieldError[] = [],
    readonly requestId?: string,
    /** Set with 401 `reauth_required`: where to send the user to authorize again (§5.2.9). */
    readonly redirect?: string,
  ) {
    super(message);
    this.name = "ProxyError";
  }

  get reauthRequired(): boolean {
    return this.code === "reauth_required";
  }
}

export type ProxyCallOptions = {
  signal?: AbortSignal;
  openAppId?: string;
  /** The sealed session token of the cookie-less fallback (never a platform token). */
  sessionToken?: string;
  /** Absolute origin for server-side use; "" in the browser. */
  baseUrl?: string;
  fetch?: typeof fetch;
};

/** Calls one operation through the app's proxy. */
export async function callProxy<N extends OperationName>(name: N, input: InputOf<N>, options: ProxyCallOptions = {}): Promise<OutputOf<N>> {
  const op = operations[name];
  const parsed = input as ParsedInput;
  const url = operationUrl(op, parsed, `${options.baseUrl ?? ""}${PROXY_BASE}`);
  const headers: Record<string, string> = { accept: "application/json" };
  if (op.method !== "GET") headers[CSRF_HEADER_NAME] = "1";
  if (options.openAppId) headers[OPEN_APP_ID_HEADER_NAME] = options.openAppId;
  if (options.sessionToken) headers.authorization = `Bearer ${options.sessionToken}`;
  let body: string | undefined;
  if (parsed.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(parsed.body);
  }
  const res = await (options.fetch ?? fetch)(url, { method: op.method, headers, body, signal: options.signal, credentials: "include", cache: "no-store" });
  if (res.status === 204) return null as OutputOf<N>;
  const text = await res.text();
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    throw new ProxyError(res.status, "invalid_response", `unexpected response (HTTP ${res.status})`, [], res.headers.get("x-request-id") ?? undefined);
  }
  if (!res.ok) {
    const error = (value as { error?: { code?: string; message?: string; fieldErrors?: ProxyFieldError[]; requestId?: string; redirect?: string } } | null)?.error;
    throw new ProxyError(
      res.status,
      error?.code ?? String(res.status),
      error?.message ?? `HTTP ${res.status}`,
      error?.fieldErrors ?? [],
      error?.requestId ?? res.headers.get("x-request-id") ?? undefined,
      error?.redirect,
    );
  }
  return value as OutputOf<N>;
}

/**
 * TanStack Query options for a read: `useQuery(platformQuery("customers.list", { query: { rows: 20 } }))`.
 * The key is `platformKeys.call(name, input)`; mutations invalidate with `invalidatedKeys(name)`.
 */
export function platformQuery<N extends OperationName>(name: N, input: InputOf<N>, options: Omit<ProxyCallOptions, "signal"> = {}) {
  return queryOptions({
    queryKey: platformKeys.call(name, input),
    queryFn: ({ signal }) => callProxy(name, input, { ...options, signal }),
  });
}
