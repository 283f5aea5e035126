import { createHmac } from "node:crypto";

/**
 * §5.5 secret mode: `X-Service-Hmac-Signature` is the lowercase hex HMAC-SHA256, keyed with the
 * webhook secret, of the payload serialized as JSON with all whitespace removed.
 *
 * "All whitespace removed" means whitespace *between JSON tokens*; the contents of string values
 * are never changed (a customer named "Li Na" keeps its space). The sender serializes compactly,
 * so the body it sends is exactly the signed text. A receiver recomputes the digest over the raw
 * body after `removeJsonWhitespace` (a no-op on a compact body, and correct if a proxy
 * re-indented the JSON) and compares in constant time.
 */
export const SIGNATURE_HEADER = "X-Service-Hmac-Signature";

export function signWebhookBody(secret: string, compactJson: string): string {
  return createHmac("sha256", secret).update(compactJson, "utf8").digest("hex");
}

/** Removes whitespace outside JSON string literals (space, tab, CR, LF: JSON's whitespace). */
export function removeJsonWhitespace(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += json[i + 1] ?? "";
        i++;
      } else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== " " && ch !== "\t" && ch !== "\n" && ch !== "\r") out += ch;
  }
  return out;
}
