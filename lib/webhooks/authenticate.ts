import { createHash, timingSafeEqual } from "node:crypto";
import type { AppEnv } from "@/lib/env";
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "@/lib/platform/webhook-signature";

export type WebhookAuthConfig = AppEnv["webhook"];

export type DeliveryRequest = {
  headers: Headers;
  url: URL;
  /** The body exactly as received (raw-body.ts). */
  rawBody: string;
};

export type AuthOutcome = { ok: true } | { ok: false; reason: string };

/** Equal contents, in time independent of where they differ and of their lengths (both are hashed first). */
export function constantTimeEqualText(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb);
}

/** `Authorization: Basic base64(user:password)` (UTF-8, §5.5); undefined when absent or malformed. */
export function parseBasicAuthorization(header: string | null): { user: string; password: string } | undefined {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header ?? "");
  if (!match) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(match[1]!, "base64"));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * §5.5: checks a delivery against the configured mode. Never throws for bad input; `reason` is safe
 * to log (it never contains the secret, a token, a password or a signature).
 * - secret: `X-Service-Hmac-Signature` over the raw body (lib/platform/webhook-signature.ts).
 * - basic: user and password both compared in constant time.
 * - oauth2: exactly one `access_token` query parameter, issued by this app and not expired.
 * - none: everything passes (start-up warns that this mode is on).
 */
export async function authenticateDelivery(
  request: DeliveryRequest,
  config: WebhookAuthConfig,
  isTokenValid: (token: string) => Promise<boolean>,
): Promise<AuthOutcome> {
  switch (config.mode) {
    case "secret": {
      const signature = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
      if (!signature) return { ok: false, reason: `missing ${WEBHOOK_SIGNATURE_HEADER}` };
      return verifyWebhookSignature(config.secret, request.rawBody, signature) ? { ok: true } : { ok: false, reason: "signature mismatch" };
    }
    case "basic": {
      const given = parseBasicAuthorization(request.headers.get("authorization"));
      if (!given) return { ok: false, reason: "missing or malformed Basic authorization" };
      // Both comparisons always run: no early exit reveals which half was wrong.
      const userOk = constantTimeEqualText(given.user, config.user);
      const passwordOk = constantTimeEqualText(given.password, config.password);
      return userOk && passwordOk ? { ok: true } : { ok: false, reason: "wrong Basic credentials" };
    }
    case "oauth2": {
      const tokens = request.url.searchParams.getAll("access_token");
      if (tokens.length !== 1 || !tokens[0]) return { ok: false, reason: "missing access_token" };
      return (await isTokenValid(tokens[0])) ? { ok: true } : { ok: false, reason: "unknown or expired access_token" };
    }
    case "none":
      return { ok: true };
  }
}
