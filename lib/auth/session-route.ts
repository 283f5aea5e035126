import "server-only";
import { apiRoute, jsonResponse, type RouteInput, type RouteContext, type RouteDeps } from "@/lib/http/route";
import { installationStatus } from "./installation-status";
import { reauthRequired, renewSessionToken, requestedOpenAppId } from "./session";
import { authOperations } from "./auth-operations";

/** `GET /api/auth/session`: the console's own session (ids and names, no token) and whether the installation needs re-authorization. */
export const handleSessionRead = apiRoute({ name: "session", scope: "auth.session", operation: authOperations["auth.session"] }, async ({ session, requestId }: RouteContext<RouteDeps, RouteInput<(typeof authOperations)["auth.session"]>>) => {
  const { signInId: _signInId, ...visible } = session;
  return jsonResponse(200, JSON.stringify({ session: visible, installation: { status: await installationStatus(session) } }), requestId);
});

/**
 * `POST /api/auth/session`: renews the fallback session token (`Authorization: Bearer`), sliding up
 * to the sign-in's end, so a console without cookies keeps working without authorizing again every
 * 30 minutes. Bearer-only: a cookie cannot renew anything, so this needs no CSRF check.
 */
export const handleSessionRenewal = apiRoute({ name: "session renewal", scope: "auth.session", operation: authOperations["auth.sessionRenew"] }, async ({ request, requestId }: RouteContext<RouteDeps, RouteInput<(typeof authOperations)["auth.sessionRenew"]>>) => {
  const renewed = await renewSessionToken(request);
  if (!renewed) throw reauthRequired(requestedOpenAppId(request));
  return jsonResponse(200, JSON.stringify(renewed), requestId);
});
