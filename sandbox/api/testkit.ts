import { afterAll } from "vitest";
import { parseJson, stringifyJson } from "@/lib/platform/json";
import type { ChangeEvent } from "../context";
import type { RunningSandbox } from "../server";
import { startTestSandbox } from "../testing/harness";

/** A sandbox on free ports with an in-memory database, plus helpers to call `/v1` with a token. */
export type ApiKit = {
  sandbox: RunningSandbox;
  changes: ChangeEvent[];
  token(environment?: "alpha" | "beta"): Promise<string>;
  /** A new token (after moving the sandbox clock, old ones may have expired). */
  newToken(environment?: "alpha" | "beta"): Promise<string>;
  call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
  /** A new customer of alpha's tenant (`POST /v1/customers`); its id. */
  createCustomer(name: string): Promise<bigint>;
  close(): Promise<void>;
};
export type CallOptions = { query?: Record<string, string | number | boolean | bigint>; body?: unknown; rawBody?: string; token?: string; environment?: "alpha" | "beta" };
// Tests read arbitrary response shapes; `any` keeps the assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiResponse = { status: number; text: string; json: any; contentType: string };

export async function startApiKit(env: Record<string, string> = {}): Promise<ApiKit> {
  const sandbox = await startTestSandbox(env);
  // No outbound webhooks from tests (the default receiver is the app on :3000).
  await fetch(`${sandbox.urls.alpha}/__sandbox/webhooks/config`, { method: "POST", body: JSON.stringify({ enabled: false }) });
  const changes: ChangeEvent[] = [];
  sandbox.ctx.changeListeners.push((c) => changes.push(c));
  const tokens = new Map<string, string>();
  const token = async (environment: "alpha" | "beta" = "alpha") => {
    const cached = tokens.get(environment);
    if (cached) return cached;
    const res = await fetch(`${sandbox.urls[environment]}/__sandbox/tokens`, { method: "POST", body: JSON.stringify({ environment }) });
    const body = (await res.json()) as { access_token: string };
    tokens.set(environment, body.access_token);
    return body.access_token;
  };
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> => {
    const environment = options.environment ?? "alpha";
    const url = new URL(`${sandbox.urls[environment]}${path}`);
    url.searchParams.set("access_token", options.token ?? (await token(environment)));
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const body = options.rawBody ?? (options.body === undefined ? undefined : stringifyJson(options.body));
    const res = await fetch(url, { method, body, headers: body === undefined ? {} : { "content-type": "application/json" } });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : parseJson(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, contentType: res.headers.get("content-type") ?? "" };
  };
  const newToken = async (environment: "alpha" | "beta" = "alpha") => {
    tokens.delete(environment);
    return token(environment);
  };
  const createCustomer = async (name: string): Promise<bigint> => (await call("POST", "/v1/customers", { body: { name } })).json.id;
  return { sandbox, changes, token, newToken, call, createCustomer, close: () => sandbox.close() };
}

/** The API kit of a test file (`const kit = await startApiKitForFile()` at the top), closed after the file's tests. */
export async function startApiKitForFile(env: Record<string, string> = {}): Promise<ApiKit> {
  const kit = await startApiKit(env);
  afterAll(() => kit.close());
  return kit;
}
