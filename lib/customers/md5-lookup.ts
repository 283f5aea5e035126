import { createParser, parseAsStringLiteral } from "@/lib/ui/url-parsers";
import type { InputOf } from "@/lib/platform/operations";
import { defineUrlState } from "@/lib/ui/url-params";

/**
 * Finding a customer by an MD5 identity (§4.1 GET /v1/customerService/getCustomerIdentityByMd5,
 * §2.2): `md5type` `common` (the general md5 of a mobile or email) or `marketplace`, and the
 * `md5value`. The looked-up pair lives in the page URL (`?md5type=&md5value=`, written with
 * replace) so a result can be linked and reloaded, and the server can prefetch it.
 */

export const MD5_TYPES = ["common", "marketplace"] as const;
export type Md5Type = (typeof MD5_TYPES)[number];

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

/** The lookup page's URL: `?md5type=&md5value=` (the value written normalized). */
export const md5LookupUrlState = defineUrlState({
  md5type: parseAsStringLiteral(MD5_TYPES).withDefault("common"),
  md5value: createParser({ parse: normalizeMd5, serialize: normalizeMd5 }).withDefault(""),
});
export type Md5Lookup = typeof md5LookupUrlState.defaults;

/** The §4.1 request, or undefined while the URL holds no valid MD5 (nothing is asked then). */
export function md5LookupInput(state: Md5Lookup): InputOf<"identities.getByMd5"> | undefined {
  if (md5ValueProblem(state.md5value)) return undefined;
  return { query: { md5type: state.md5type, md5value: normalizeMd5(state.md5value) } };
}

/** §7.2: "not found" is error 409200 (the proxy answers it as HTTP 404 with that code). */
export function isMd5NotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "409200";
}
