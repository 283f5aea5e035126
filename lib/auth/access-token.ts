import "server-only";
import { logger } from "@/lib/log";
import { callPlatform } from "@/lib/platform/client";
import { isRefusal } from "@/lib/platform/errors";
import { operations } from "@/lib/platform/operations";
import { getStore, type Store } from "@/lib/store";
import {
  clearRefreshInFlight,
  findInstallation,
  isRefreshInFlight,
  markReauthRequired,
  markRefreshInFlight,
  refreshesInFlight,
  updateInstallationTokens,
  withInstallationLock,
  type Installation,
  type InstallationKey,
} from "@/lib/store/installations";
import { ReauthRequiredError } from "@/lib/http/api-error";
import { installationLifecycle } from "./lifecycle";
import { reauthRequired } from "./session";
import { clientCredentials, resolveEnvironment } from "./settings";
import { processValue } from "@/lib/process-state";

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

// One per process, not per bundle (lib/process-state.ts): start-up resumes refreshes in instrumentation.
const inFlight = processValue("token-refreshes", () => new Map<string, Promise<{ accessToken: string; apiUrl: string }>>());

function flightKey(key: InstallationKey): string {
  return `${key.openAppId}\u0000${key.tenantId}`;
}

function isFresh(installation: Installation, now: number): boolean {
  return installation.tokens.accessTokenExpiresAt - now > REFRESH_AHEAD_MS;
}

/** A forced refresh without `rejectedAccessToken` keeps tokens this recent (another caller just refreshed). */
export const RECENT_REFRESH_MS = 10_000;

/** Why a refresh is asked for: the platform refused a token, a refresh left in flight is resumed, or (undefined) expiry. */
type Rejection = { token?: string } | { resume: true } | undefined;

async function refreshUnderLock(store: Store, key: InstallationKey, rejection: Rejection): Promise<string> {
  const environment = await resolveEnvironment(key.openAppId, store);
  if (!environment) throw reauthNeeded(key, "the installation's environment is unknown");
  // The outcome leaves the lock's transaction before anything is thrown, so the mark commits.
  const outcome = await withInstallationLock(store, key, async (installation, executor): Promise<{ token: string } | { reauth: string; refused?: true }> => {
    if (!installation || installation.status === "reauth_required") {
      // Nothing left to resume for it: only a new authorization helps.
      if (rejection && "resume" in rejection) await clearRefreshInFlight(key, executor);
      return { reauth: "the installation must be authorized again" };
    }
    const now = Date.now();
    // Another caller (or instance) refreshed while we waited for the lock: use its token.
    const current = installation.tokens.accessToken;
    const usable = !rejection
      ? isFresh(installation, now)
      : "resume" in rejection
        ? !(await isRefreshInFlight(key, executor))
        : rejection.token !== undefined
          ? isFresh(installation, now) && current !== rejection.token
          : isFresh(installation, now) && now - installation.updatedAt < RECENT_REFRESH_MS;
    if (usable) return { token: current };
    // Committed before the call (its own statement, outside this transaction): if the process dies
    // after the platform rotated and before the new pair is stored, the next start-up resumes it.
    await markRefreshInFlight(store, key, now);
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
        await clearRefreshInFlight(key, executor);
        logger().warn({ openAppId: key.openAppId, tenantId: key.tenantId }, "refresh token refused: installation needs re-authorization");
        return { reauth: "the refresh token was refused", refused: true };
      }
      throw error;
    }
    // Rotation: the new pair is written first, in one statement, before anything else is done with
    // the answer; the lock's transaction commits right after, with the in-flight mark removed. A
    // crash inside that window loses the rotated refresh token; a platform with a rotation grace
    // (the sandbox's SANDBOX_REFRESH_GRACE_SECONDS) still honours the old one, which the start-up
    // of the next instance uses at once (resumeInterruptedRefreshes, README).
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
    await clearRefreshInFlight(key, executor);
    logger().info({ openAppId: key.openAppId, tenantId: key.tenantId, rotated: Boolean(grant.refresh_token) }, "access token refreshed");
    return { token: grant.access_token };
  });
  if ("reauth" in outcome) {
    // After the lock's commit, once per refusal: subscribers see the installation marked.
    if (outcome.refused) await installationLifecycle().publish({ type: "disconnected", key: { openAppId: key.openAppId, tenantId: key.tenantId } }, logger());
    throw reauthNeeded(key, outcome.reauth);
  }
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

export type ResumeReport = { found: number; recovered: number; reauthRequired: number; failed: number };

/**
 * Start-up (instrumentation.ts): every refresh another instance left in flight (its mark, written
 * before the platform call, still there) is done again at once with the stored refresh token,
 * while the platform's rotation grace may still accept it, instead of at the next request. A mark
 * whose refresh another instance has completed meanwhile is left alone (checked under the lock).
 */
export async function resumeInterruptedRefreshes(): Promise<ResumeReport> {
  const store = await getStore();
  const flights = await refreshesInFlight(store);
  const report: ResumeReport = { found: flights.length, recovered: 0, reauthRequired: 0, failed: 0 };
  for (const flight of flights) {
    const key = { openAppId: flight.openAppId, tenantId: flight.tenantId };
    const id = flightKey(key);
    // Through the same single-flight as requests: on SQLite it is the only lock.
    let attempt = inFlight.get(id);
    if (!attempt) {
      const apiUrl = (await resolveEnvironment(key.openAppId, store))?.apiDomain ?? "";
      const flight = refreshUnderLock(store, key, { resume: true })
        .then((accessToken) => ({ accessToken, apiUrl }))
        .finally(() => inFlight.delete(id));
      inFlight.set(id, flight);
      attempt = flight;
    }
    try {
      await attempt;
      report.recovered += 1;
    } catch (error) {
      if (error instanceof ReauthRequiredError) report.reauthRequired += 1;
      else report.failed += 1;
    }
  }
  if (flights.length > 0) logger().info(report, "refreshes left in flight resumed");
  return report;
}
