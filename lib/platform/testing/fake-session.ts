/**
 * A `requireSession` that always finds `session` signed in, for route tests and benchmarks whose
 * subject is not sign-in (sign-in itself is tested with real sessions, lib/auth).
 */
export function signedIn<S extends { openAppId: string }>(session: S): () => Promise<{ ok: true; session: S }> {
  return async () => ({ ok: true, session });
}

/** Alpha's installation in the Platform Sandbox (its seeded tenant). */
export const SANDBOX_ALPHA_SESSION = { openAppId: "alpha-app", tenantId: "80000000001" };
