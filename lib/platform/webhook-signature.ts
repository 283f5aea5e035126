import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * §5.5 secret mode, the one rule shared by the platform's sender (the sandbox) and the app's receiver.
 *
 * `X-Service-Hmac-Signature` is the lowercase hex HMAC-SHA256, keyed with the webhook secret, of the
 * payload serialized as JSON "with all whitespace removed". We read that as: JSON's insignificant
 * whitespace — space, tab, CR and LF *between tokens* — is removed; the contents of string literals
 * (including spaces, tabs written as `\t`, and escape sequences exactly as written) are kept byte for
 * byte. So a customer named "Li Na" keeps its space, and a body that a proxy pretty-printed still
 * verifies. The digest is computed over the UTF-8 bytes of that text.
 *
 * The sender serializes compactly (`JSON.stringify`, no whitespace between tokens), so its body is
 * exactly the signed text. The receiver takes the RAW body, removes whitespace outside strings with
 * `removeJsonWhitespace`, computes the digest and compares it in constant time. It never re-serializes
 * a parsed payload: a parse/serialize round trip could change number spelling or key order.
 */
export const WEBHOOK_SIGNATURE_HEADER = "X-Service-Hmac-Signature";

/** Removes JSON whitespace (space, tab, CR, LF) outside string literals; string contents are untouched. */
export function removeJsonWhitespace(json: string): string {
  let out = "";
  let start = 0; // start of the pending run of kept characters
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++; // the escaped character never ends the string
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) {
      out += json.slice(start, i);
      start = i + 1;
    }
  }
  return out + json.slice(start);
}

/** The signature of a payload text (whitespace outside strings is removed first, so compact or not). */
export function signWebhookPayload(secret: string, json: string): string {
  return createHmac("sha256", secret).update(removeJsonWhitespace(json), "utf8").digest("hex");
}

/**
 * Whether `signature` (the header value) is the signature of `rawBody`. Constant time in the
 * contents; a missing or malformed header is simply false. Upper-case hex is accepted.
 */
export function verifyWebhookSignature(secret: string, rawBody: string, signature: string | null | undefined): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature.trim())) return false;
  const expected = createHmac("sha256", secret).update(removeJsonWhitespace(rawBody), "utf8").digest();
  return timingSafeEqual(expected, Buffer.from(signature.trim(), "hex"));
}
