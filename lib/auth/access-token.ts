import "server-only";
import { logger } from "@/lib/log";
import { callPlatform } from "@/lib/platform/client";
import { isRefusal } from "@/lib/platform/errors";
import { operations } from "@/lib/platform/operations";
import { getStore, type Store } from "@/lib/store";
import {
  findInstallation,
  markReauthRequired,
  updateInstallationTokens,
  withInstallationLock,
  type Installation,
  type InstallationKey,
} from "@/lib/store/installations";
import type { ReauthRequiredError } from "@/lib/http/api-error";
import { reauthRequired } from "./session";
import { clientCredentials, resolveEnvironment } from "./settings";

/**
 * Access tokens of installations (ARCHITECTURE.md §4 "Tokens", §5.1.2, §5.2.7). A token is refreshed
 * ahead of its expiry, once per installation at a time: one promise per installation in this
 * process, and on PostgreSQL the installation's row lock across processes; the holder re-reads the
 * row and uses a token that another instance has just refreshed instead of refreshing again.
 */

/**
 * The installation must authorize again (its refresh token was refused, or it is not installed):
 * the app API's one `ReauthRequiredError`, whose redirect starts authorization for its openAppId.
 */
function reauthNeeded(key: InstallationKey, message = "the installation must be authorized again"): ReauthRequiredError {
  return reauthRequired(key.openAppId, message);
}

/** Refresh when less than this is left, so no call goes out with a token about to lapse. */
export const REFRESH_AHEAD_MS = 5 * 60 * 1000;

const inFlight = new Map<string, Promise<{ accessToken: string; apiUrl: string }>>();

function flightKey(key: InstallationKey): string {
  return `${key.openAppId}\u0000${key.tenantId}`;
}

function isFresh(installation: Installation, now: number): boolean {
  return installation.tokens.accessTokenExpiresAt - now > REFRESH_AHEAD_MS;
}

/** A forced refresh without `rejectedAccessToken` keeps tokens this recent (another caller just refreshed). */
export const RECENT_REFRESH_MS = 10_000;

type Rejection = { token?: string } | undefined;

async function refreshUnderLock(store: Store, key: InstallationKey, rejection: Rejection): Promise<string> {
  const environment = await resolveEnvironment(key.openAppId, store);
  if (!environment) throw reauthNeeded(key, "the installation's environment is unknown");
  // The outcome leaves the lock's transaction before anything is thrown, so the mark commits.
  const outcome = await withInstallationLock(store, key, async (installation, executor): Promise<{ token: string } | { reauth: string }> => {
    if (!installation || installation.status === "reauth_required") return { reauth: "the installation must be authorized again" };
    const now = Date.now();
    // Another caller (or instance) refreshed while we waited for the lock: use its token.
    const current = installation.tokens.accessToken;
    const usable = !rejection
      ? isFresh(installation, now)
      : rejection.token !== undefined
        ? isFresh(installation, now) && current !== rejection.token
        : isFresh(installation, now) && now - installation.updatedAt < RECENT_REFRESH_MS;
    if (usable) return { token: current };
    let grant;
    try {
      // §5.2.7. Not idempotent: the client retries it only on a refused connection.
      grant = await callPlatform(
        operations["auth.refresh"],
        { body: { grant_type: "refresh_token", refresh_token: installation.tokens.refreshToken } },
        { authUrl: environment.authDomain, clientCredentials: clientCredentials() },
      );
    } catch (error) {
      if (isRefusal(error)) {
        // An invalid refresh token: only a new authorization helps (a network error does not mark).
        await markReauthRequired(store, key, executor);
        logger().warn({ openAppId: key.openAppId, tenantId: key.tenantId }, "refresh token refused: installation needs re-authorization");
        return { reauth: "the refresh token was refused" };
      }
      throw error;
    }
    // Rotation: the new pair is written first, in one statement, before anything else is done with
    // the answer; the lock's transaction commits right after. A crash inside that window loses the
    // rotated refresh token; a platform with a rotation grace (the sandbox's
    // SANDBOX_REFRESH_GRACE_SECONDS) still honours the old one, which the next refresh uses (README).
    await updateInstallationTokens(
      store,
      key,
      {
        accessToken: grant.access_token,
        refreshToken: grant.refresh_token ?? installation.tokens.refreshToken,
        accessTokenExpiresAt: now + grant.expires_in * 1000,
      },
      executor,
      now,
    );
    logger().info({ openAppId: key.openAppId, tenantId: key.tenantId, rotated: Boolean(grant.refresh_token) }, "access token refreshed");
    return { token: grant.access_token };
  });
  if ("reauth" in outcome) throw reauthNeeded(key, outcome.reauth);
  return outcome.token;
}

/**
 * A valid access token of the installation, refreshed ahead of expiry, single-flight (process +
 * PostgreSQL cluster). `forceRefresh` after the platform refused the current token; pass the refused
 * token as `rejectedAccessToken` when known, so a token another caller already replaced is not refreshed again.
 */
export async function getAccessToken(
  key: { openAppId: string; tenantId: string },
  options: { forceRefresh?: boolean; rejectedAccessToken?: string } = {},
): Promise<{ accessToken: string; apiUrl: string }> {
  const id = flightKey(key);
  const running = inFlight.get(id);
  if (running) return running;
  const store = await getStore();
  const installation = await findInstallation(store, key);
  if (!installation || installation.status === "reauth_required") throw reauthNeeded(key);
  const environment = await resolveEnvironment(key.openAppId, store);
  if (!environment) throw reauthNeeded(key, "the installation's environment is unknown");
  const forced = options.forceRefresh || options.rejectedAccessToken !== undefined;
  if (!forced && isFresh(installation, Date.now())) {
    return { accessToken: installation.tokens.accessToken, apiUrl: environment.apiDomain };
  }
  if (forced && options.rejectedAccessToken !== undefined && options.rejectedAccessToken !== installation.tokens.accessToken && isFresh(installation, Date.now())) {
    return { accessToken: installation.tokens.accessToken, apiUrl: environment.apiDomain };
  }
  const again = inFlight.get(id);
  if (again) return again;
  const rejection: Rejection = forced ? { token: options.rejectedAccessToken } : undefined;
  const flight = refreshUnderLock(store, key, rejection)
    .then((accessToken) => ({ accessToken, apiUrl: environment.apiDomain }))
    .finally(() => inFlight.delete(id));
  inFlight.set(id, flight);
  return flight;
}
