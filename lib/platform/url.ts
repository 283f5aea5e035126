import type { OperationSpec } from "./operations";

/** Input split by where it goes: path parameters, query parameters, body. */
export type ParsedInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

export function queryValue(value: unknown): string {
  return typeof value === "string" ? value : String(value);
}

/**
 * The URL of an operation under `baseUrl`: path template filled, query appended (null/undefined
 * skipped). Shared by the server client (platform URLs) and the browser client (proxy URLs).
 */
export function operationUrl(op: Pick<OperationSpec, "path">, input: ParsedInput, baseUrl: string): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(queryValue(params[name])));
  let url = `${baseUrl.replace(/\/+$/, "")}${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, queryValue(value));
  }
  const qs = search.toString();
  if (qs) url += `?${qs}`;
  return url;
}
