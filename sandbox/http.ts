import type { Context } from "hono";
import { parseJson, stringifyJson } from "@/lib/platform/json";

/** JSON response written losslessly: `bigint` ids go out as JSON integers (§2). */
export function sendJson(c: Context, value: unknown, status = 200): Response {
  return c.newResponse(stringifyJson(value), status as 200, { "Content-Type": "application/json;charset=UTF-8" });
}

/** Plain-text response, as the platform sends for some HTTP 400s (§7.3). */
export function sendText(c: Context, text: string, status = 400): Response {
  return c.newResponse(text, status as 400, { "Content-Type": "text/plain;charset=UTF-8" });
}

export type JsonBody = { ok: true; value: unknown } | { ok: false };

/** Reads a JSON body losslessly; ids above 2^53 arrive as `bigint`. */
export async function readJson(c: Context): Promise<JsonBody> {
  const text = await c.req.text();
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseJson(text) };
  } catch {
    return { ok: false };
  }
}
