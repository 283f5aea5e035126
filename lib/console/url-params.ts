import type { PageSearchParams } from "@/lib/auth/page-session";

/** Next's `searchParams` object as `URLSearchParams` (first value of a repeated key), for the pure `parse…State` functions. */
export function toUrlParams(params: PageSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out.set(key, first);
  }
  return out;
}
