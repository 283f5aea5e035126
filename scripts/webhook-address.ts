/**
 * Prints the per-installation webhook address of an environment (lib/webhooks/address.ts), for the
 * platform's webhook setting when it is given one address per environment:
 *   SESSION_PASSWORD=… APP_URL=https://console.example npx tsx scripts/webhook-address.ts <openAppId>
 * The address carries a MAC of the openAppId made with the app's session password, so it changes
 * when that password does.
 */
import { webhookAddressKey, webhookAddressQuery } from "../lib/webhooks/address";

const openAppId = process.argv[2];
const password = process.env.SESSION_PASSWORD;
const appUrl = (process.env.APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
if (!openAppId || !/^[A-Za-z0-9._-]{1,128}$/.test(openAppId) || !password) {
  console.error("usage: SESSION_PASSWORD=… [APP_URL=…] npx tsx scripts/webhook-address.ts <openAppId>");
  process.exit(2);
}
console.log(`${appUrl}/api/webhooks/platform?${webhookAddressQuery(webhookAddressKey(password), openAppId)}`);
