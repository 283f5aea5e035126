import "server-only";
import { apiRoute, jsonResponse, type RouteDeps } from "@/lib/http/route";
import { installationStatus } from "./installation-status";
import { reauthRequired, renewSessionToken, requestedOpenAppId } from "./session";

/** `GET /api/auth/session`: the console's own session (ids and names, no token) and whether the installation needs re-authorization. */
export const handleSessionRead = apiRoute<RouteDeps>({ name: "session", scope: "auth.session", session: true }, async ({ session, requestId }) => {
  const { signInId: _signInId, ...visible } = session;
  return jsonResponse(200, JSON.stringify({ session: visible, installation: { status: await installationStatus(session) } }), requestId);
});

/**
 * `POST /api/auth/session`: renews the fallback session token (`Authorization: Bearer`), sliding up
 * to the sign-in's end, so a console without cookies keeps working without authorizing again every
 * 30 minutes. Bearer-only: a cookie cannot renew anything, so this needs no CSRF check.
 */
export const handleSessionRenewal = apiRoute<RouteDeps>({ name: "session renewal", scope: "auth.session", csrf: "never" }, async ({ request, requestId }) => {
  const renewed = await renewSessionToken(request);
  if (!renewed) throw reauthRequired(requestedOpenAppId(request));
  return jsonResponse(200, JSON.stringify(renewed), requestId);
});
