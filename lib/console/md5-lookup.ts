import type { InputOf } from "@/lib/platform/operations";

/**
 * Finding a customer by an MD5 identity (§4.1 GET /v1/customerService/getCustomerIdentityByMd5,
 * §2.2): `md5type` `common` (the general md5 of a mobile or email) or `marketplace`, and the
 * `md5value`. The looked-up pair lives in the page URL (`?md5type=&md5value=`, written with
 * replace) so a result can be linked and reloaded, and the server can prefetch it.
 */

export const MD5_TYPES = ["common", "marketplace"] as const;
export type Md5Type = (typeof MD5_TYPES)[number];
export type Md5Lookup = { md5type: Md5Type; md5value: string };
export const DEFAULT_MD5_LOOKUP: Md5Lookup = { md5type: "common", md5value: "" };

const OURS = ["md5type", "md5value"];
/** An MD5 digest written in hex: 32 characters 0-9 a-f (upper case accepted, sent in lower case). */
const MD5_HEX = /^[0-9a-f]{32}$/;

export function normalizeMd5(value: string): string {
  return value.trim().toLowerCase();
}

export function md5ValueProblem(value: string): "required" | "notMd5" | undefined {
  const v = normalizeMd5(value);
  if (!v) return "required";
  if (!MD5_HEX.test(v)) return "notMd5";
  return undefined;
}

export function parseMd5Lookup(params: URLSearchParams): Md5Lookup {
  const type = params.get("md5type") ?? "";
  return {
    md5type: (MD5_TYPES as readonly string[]).includes(type) ? (type as Md5Type) : DEFAULT_MD5_LOOKUP.md5type,
    md5value: params.get("md5value") ?? "",
  };
}

/** The URL query of a lookup: the default type and an empty value left out, other parameters kept. */
export function serializeMd5Lookup(state: Md5Lookup, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of keep ?? []) if (!OURS.includes(key)) out.append(key, value);
  if (state.md5type !== DEFAULT_MD5_LOOKUP.md5type) out.set("md5type", state.md5type);
  const value = normalizeMd5(state.md5value);
  if (value) out.set("md5value", value);
  return out;
}

/** The §4.1 request, or undefined while the URL holds no valid MD5 (nothing is asked then). */
export function md5LookupInput(state: Md5Lookup): InputOf<"identities.getByMd5"> | undefined {
  if (md5ValueProblem(state.md5value)) return undefined;
  return { query: { md5type: state.md5type, md5value: normalizeMd5(state.md5value) } };
}

/** §7.2: "not found" is error 409200 (the proxy answers it as HTTP 404 with that code). */
export function isMd5NotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "409200";
}
