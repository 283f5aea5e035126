import { createHmac } from "node:crypto";
import { constantTimeEqualText } from "./authenticate";

/**
 * Per-installation webhook addresses (docs/decisions/sign-in-hardening.md). Where the platform is given one webhook
 * address per environment, the address names the environment (`?openAppId=`) with a MAC of it
 * (`&sig=`), so only this app can make one: a sender cannot re-target a delivery at another tenant
 * by editing the query (which no webhook signature covers). Without a valid `sig` the query's
 * openAppId is ignored and a delivery whose body names none is stored unattributed.
 * `scripts/webhook-address.ts` prints the address of an openAppId.
 */

const ADDRESS_PARAM = "openAppId";
const SIG_PARAM = "sig";

/** The address key, derived from the app's session password (a separate key per purpose). */
export function webhookAddressKey(sessionPassword: string): string {
  return `${sessionPassword}:webhook-address`;
}

export function webhookAddressSig(key: string, openAppId: string): string {
  return createHmac("sha256", key).update(`webhook-address\u0000${openAppId}`, "utf8").digest("base64url");
}

/** The query of an environment's webhook address: `openAppId=…&sig=…`. */
export function webhookAddressQuery(key: string, openAppId: string): string {
  return new URLSearchParams({ [ADDRESS_PARAM]: openAppId, [SIG_PARAM]: webhookAddressSig(key, openAppId) }).toString();
}

/** The openAppId the delivery's address names, when its `sig` proves that this app made the address. */
export function verifiedAddressOpenAppId(url: URL, key: string | undefined): string | undefined {
  if (!key) return undefined;
  const named = url.searchParams.getAll(ADDRESS_PARAM);
  const sigs = url.searchParams.getAll(SIG_PARAM);
  if (named.length !== 1 || sigs.length !== 1 || !named[0] || named[0].length > 128) return undefined;
  return constantTimeEqualText(webhookAddressSig(key, named[0]), sigs[0]!) ? named[0] : undefined;
}
