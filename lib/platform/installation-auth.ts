import "server-only";

/**
 * The proxy's boundary to the app-auth part (sessions and installation tokens), with exactly the
 * signatures of `lib/auth/session.ts` and `lib/auth/access-token.ts`. Until those land on main this
 * file holds stand-ins that refuse every request with the 401 of §5.2.9 (no session system yet);
 * wiring the real ones in is replacing the body of this file with:
 *
 *   export { requireApiSession, type ConsoleSession } from "@/lib/auth/session";
 *   export { getAccessToken, ReauthRequiredError } from "@/lib/auth/access-token";
 */

export type ConsoleSession = {
  openAppId: string;
  tenantId: string;
  userId: string;
  userName: string;
  tenantName?: string;
  expiresAt: number;
};

export class ReauthRequiredError extends Error {
  constructor(message = "the installation must be authorized again") {
    super(message);
    this.name = "ReauthRequiredError";
  }
}

export async function requireApiSession(request: Request): Promise<{ ok: true; session: ConsoleSession } | { ok: false; response: Response }> {
  const openAppId = request.headers.get("x-open-app-id") ?? new URL(request.url).searchParams.get("openAppId") ?? undefined;
  const redirect = `/api/auth/start${openAppId ? `?openAppId=${encodeURIComponent(openAppId)}` : ""}`;
  return {
    ok: false,
    response: Response.json(
      { error: { code: "reauth_required", message: "Sign-in required: authorize again to continue.", redirect } },
      { status: 401, headers: { "Cache-Control": "no-store" } },
    ),
  };
}

export async function getAccessToken(
  _key: { openAppId: string; tenantId: string },
  _options?: { forceRefresh?: boolean; rejectedAccessToken?: string },
): Promise<{ accessToken: string; apiUrl: string }> {
  throw new ReauthRequiredError("no installation store is wired in yet");
}
