import { expect, type APIRequestContext } from "@playwright/test";
import { ALPHA } from "./sandbox-login";

/**
 * The sandbox's platform API and control plane, for test setup and for checking results (the side
 * door, not the UI's path). Ids exceed 2^53: they are read as strings.
 */

/** Quotes bare integers of 16+ digits so that JSON.parse keeps them exact. */
export function parseJsonWithIds(text: string): unknown {
  return JSON.parse(text.replace(/([:\[,]\s*)(\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
}

/** A sandbox access token (the sandbox's `POST /__sandbox/tokens`). */
export async function sandboxToken(origin: string = ALPHA.origin, environment: string = ALPHA.environment): Promise<string> {
  const response = await fetch(`${origin}/__sandbox/tokens`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ environment }) });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Empties the sandbox back to its base data and, when asked, seeds that many customers. */
export async function resetSandbox(request: APIRequestContext, seed?: { customers: number }) {
  expect((await request.post(`${ALPHA.origin}/__sandbox/reset`)).ok()).toBe(true);
  if (seed) expect((await request.post(`${ALPHA.origin}/__sandbox/seed`, { data: seed })).ok()).toBe(true);
}

/** A call on alpha's (or `origin`'s) platform API with a token: the HTTP status and the JSON answer (`{}` when empty). */
export async function platformCall(
  method: string,
  path: string,
  token: string,
  options: { query?: Record<string, string>; body?: unknown; origin?: string } = {},
): Promise<{ status: number; json: unknown }> {
  const url = new URL(`${options.origin ?? ALPHA.origin}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  url.searchParams.set("access_token", token);
  const init: RequestInit = options.body === undefined ? { method } : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(options.body) };
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, json: text ? parseJsonWithIds(text) : {} };
}

/** GET on the platform API: the JSON answer. */
export async function platformGet(path: string, query: Record<string, string>, token: string): Promise<unknown> {
  return (await platformCall("GET", path, token, { query })).json;
}

/** POST/PUT on the platform API (test setup): the JSON answer. */
export async function platformSend<T = Record<string, unknown>>(method: string, path: string, body: unknown, token: string): Promise<T> {
  return (await platformCall(method, path, token, { body })).json as T;
}
