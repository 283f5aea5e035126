import { createHmac } from "node:crypto";

/**
 * §5.3: the HMAC the platform puts on the authorization callback.
 *
 * The canonical string is built from the *decoded* query pairs (the values as the receiver sees
 * them after URL decoding), because the steps of §5.3 work on key/value pairs and escape only
 * `%`, `&` and `=`; nothing else is percent-encoded (spaces, `+` and non-ASCII text stay as they
 * are, the HMAC is computed over the UTF-8 bytes of the string). `hmac` and `state` are left out.
 */
export function escapeHmacPart(text: string): string {
  // `%` first, so the `%` of the other escapes is not escaped again.
  return text.replace(/%/g, "%25").replace(/&/g, "%26").replace(/=/g, "%3D");
}

export function canonicalHmacString(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== "hmac" && key !== "state")
    .sort() // §5.3.2: by key (UTF-16 code unit order; keys are ASCII in practice)
    .map((key) => `${escapeHmacPart(key)}=${escapeHmacPart(params[key]!)}`)
    .join("&");
}

/** §5.3.5: lowercase hex HMAC-SHA256 of the canonical string, keyed with the client secret. */
export function signCallbackParams(secret: string, params: Record<string, string>): string {
  return createHmac("sha256", secret).update(canonicalHmacString(params), "utf8").digest("hex");
}
