import { reauthResponse, renewSessionToken, requestedOpenAppId, requireApiSession } from "@/lib/auth/session";
import { installationStatus } from "@/lib/auth/installation-status";

export const dynamic = "force-dynamic";

/** The console's own session (ids and names, no token) and whether the installation needs re-authorization. */
export async function GET(request: Request) {
  const result = await requireApiSession(request);
  if (!result.ok) return result.response;
  const { session } = result;
  return Response.json(
    { session, installation: { status: await installationStatus(session) } },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * Renews the fallback session token (`Authorization: Bearer`), sliding up to the sign-in's end, so
 * a console without cookies keeps working without authorizing again every 30 minutes. Bearer-only:
 * a cookie cannot renew anything, so this is not open to cross-site requests.
 */
export async function POST(request: Request) {
  const renewed = await renewSessionToken(request);
  if (!renewed) return reauthResponse(requestedOpenAppId(request));
  return Response.json(renewed, { headers: { "Cache-Control": "no-store" } });
}
