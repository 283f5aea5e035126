import "server-only";
import { getIronSession, sealData, unsealData, webCookies, type CookieStore, type SessionOptions } from "iron-session";
import { ReauthRequiredError, type ApiError } from "@/lib/http/api-error";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { getStore } from "@/lib/store";
import { TtlMemory } from "@/lib/ttl-memory";
import { latestInstallation } from "@/lib/store/installations";
import { createSignIn, isSignInLive, newSignInId, revokeSignIns, revokeUserSignIns } from "@/lib/store/sign-ins";
import { OPEN_APP_ID_HEADER } from "./client-session";
import { isOpenAppId, isPrivateDeployment, PRIVATE_OPEN_APP_ID } from "./settings";
import { processValue } from "@/lib/process-state";

/**
 * The console session (ARCHITECTURE.md §4 "Sessions in the iframe"). An iron-session cookie
 * (`HttpOnly; Secure; SameSite=None; Partitioned`) holding ids only, one entry per openAppId so
 * two environments in one browser never mix. Where the browser refuses the cookie, the same data
 * travels as a short-lived sealed session token (`Authorization: Bearer`), never a platform token.
 * Both name a server-side sign-in (lib/store/sign-ins.ts): once it is revoked (logout, sign out
 * everywhere) or expired, neither is accepted, on every instance, within `SIGN_IN_CHECK_CACHE_MS`.
 */

export type ConsoleSession = {
  openAppId: string;
  tenantId: string;
  userId: string;
  userName: string;
  tenantName?: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** The server-side sign-in (lib/store/sign-ins.ts); absent only for the private deployment's installation session. */
  signInId?: string;
};

/** What `GET /api/auth/session` answers: the console session (ids and names) and the installation's state. */
export type ConsoleSessionInfo = {
  session: Omit<ConsoleSession, "expiresAt"> & { expiresAt?: number };
  installation: { status: "active" | "reauth_required" | "missing" };
};

type SessionEntry = Omit<ConsoleSession, "openAppId">;
type CookieData = { entries?: Record<string, SessionEntry> };

export const SESSION_COOKIE = "ec_session";
/** How long a sign-in lasts; §5.2.9 then starts authorization again. */
export const SESSION_TTL_SECONDS = 8 * 3600;
/** The fallback token's life: short, renewed by authorizing again. */
export const SESSION_TOKEN_TTL_SECONDS = 30 * 60;
const MAX_ENTRIES = 8;

export const SESSION_COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: "none", partitioned: true, path: "/" } as const;

function sessionOptions(): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: env().sessionPassword,
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: { ...SESSION_COOKIE_OPTIONS },
    onUnsealError: (reason) => {
      if (reason !== "expired") logger().warn({ reason }, "session cookie rejected");
    },
  };
}

/** The fallback token uses its own derived password: a cookie seal is no bearer token and vice versa. */
function tokenPassword(): string {
  return `${env().sessionPassword}:session-token`;
}

function liveEntries(data: CookieData, now: number): Record<string, SessionEntry> {
  const result: Record<string, SessionEntry> = {};
  for (const [openAppId, entry] of Object.entries(data.entries ?? {})) {
    if (entry && typeof entry.expiresAt === "number" && entry.expiresAt > now && isOpenAppId(openAppId)) result[openAppId] = entry;
  }
  return result;
}

/** Every live session of the cookie, keyed by openAppId. */
export async function readCookieSessions(cookies: CookieStore): Promise<Record<string, ConsoleSession>> {
  const session = await getIronSession<CookieData>(cookies, sessionOptions());
  const entries = liveEntries(session, Date.now());
  const result: Record<string, ConsoleSession> = {};
  for (const [openAppId, e] of Object.entries(entries)) {
    if (await signInLive(e.signInId)) result[openAppId] = { ...e, openAppId };
  }
  return result;
}

/**
 * How long an instance trusts its last look at a sign-in: a revocation by another instance is
 * effective on this one within this time (on this one at once). The proxy's session memory
 * (lib/proxy/proxy-cache.ts) adds its own few seconds for proxied calls.
 */
export const SIGN_IN_CHECK_CACHE_MS = 2_000;
// One per process, not per bundle: a sign-in ended by a route handler is refused by the page renders
// of the same process at once (Next gives each its own copy of this module).
const signInChecks = processValue("auth.signInChecks", () => new TtlMemory<boolean>(10_000));

async function signInLive(id: string | undefined): Promise<boolean> {
  if (typeof id !== "string" || id === "") return false;
  const now = Date.now();
  const known = signInChecks.get(id, now);
  if (known !== undefined) return known;
  const live = await isSignInLive(await getStore(), id, now);
  signInChecks.set(id, live, now + SIGN_IN_CHECK_CACHE_MS);
  return live;
}

/** Records a completed sign-in on the server; the returned session names it (cookie entry, fallback token). */
export async function beginSignIn(session: Omit<ConsoleSession, "signInId">): Promise<ConsoleSession> {
  const id = newSignInId();
  await createSignIn(await getStore(), { id, openAppId: session.openAppId, tenantId: session.tenantId, userId: session.userId, expiresAt: session.expiresAt });
  return { ...session, signInId: id };
}

/** Ends sign-ins on the server: these ids, or with `everywhere` every sign-in of their users. */
export async function endSignIns(sessions: ConsoleSession[], everywhere = false): Promise<number> {
  const store = await getStore();
  const ids = new Set(sessions.flatMap((s) => (s.signInId ? [s.signInId] : [])));
  await revokeSignIns(store, [...ids]);
  // A user without a key (no id, no login from users/current) reaches only their own sign-ins.
  if (everywhere) for (const s of sessions) if (s.userId) for (const id of await revokeUserSignIns(store, s)) ids.add(id);
  markSignInsEnded([...ids]);
  return ids.size;
}

/** This instance refuses these sign-ins at once (others within `SIGN_IN_CHECK_CACHE_MS`): they were ended or deleted. */
export function markSignInsEnded(ids: readonly string[]): void {
  const until = Date.now() + SIGN_IN_CHECK_CACHE_MS;
  for (const id of ids) signInChecks.set(id, false, until);
}

function requestCookieStore(request: Request): CookieStore {
  const jar = webCookies(request, new Headers());
  return { get: (name) => { const value = jar.read(name); return value === undefined ? undefined : { name, value }; }, set: () => undefined };
}

/** Adds (or replaces) the entry of `session.openAppId` in the cookie written to `responseHeaders`. */
export async function saveSessionEntry(request: Request, responseHeaders: Headers, session: ConsoleSession): Promise<void> {
  const ironSession = await getIronSession<CookieData>(webCookies(request, responseHeaders), sessionOptions());
  const entries = liveEntries(ironSession, Date.now());
  const { openAppId, ...entry } = session;
  entries[openAppId] = entry;
  // The newest entries win when a browser has signed in to many environments.
  const kept = Object.entries(entries).sort(([, a], [, b]) => b.expiresAt - a.expiresAt).slice(0, MAX_ENTRIES);
  ironSession.entries = Object.fromEntries(kept);
  await ironSession.save();
}

/** Removes one environment's entry (or all of them) from the cookie. */
export async function removeSessionEntry(request: Request, responseHeaders: Headers, openAppId?: string): Promise<void> {
  const ironSession = await getIronSession<CookieData>(webCookies(request, responseHeaders), sessionOptions());
  const entries = liveEntries(ironSession, Date.now());
  if (openAppId) delete entries[openAppId];
  if (!openAppId || Object.keys(entries).length === 0) {
    ironSession.destroy();
    return;
  }
  ironSession.entries = entries;
  await ironSession.save();
}

/** `expiresAt` is the token's; `sessionExpiresAt` the sign-in's, which renewals never pass. */
type TokenData = ConsoleSession & { kind: "console-session-token"; sessionExpiresAt: number };

/**
 * The fallback: a sealed, short-lived token of one environment's session (never a platform token).
 * `sessionExpiresAt` caps renewals at the sign-in's end (defaults to `session.expiresAt`).
 */
export async function issueSessionToken(session: ConsoleSession, sessionExpiresAt = session.expiresAt): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = Math.min(sessionExpiresAt, Date.now() + SESSION_TOKEN_TTL_SECONDS * 1000);
  const data: TokenData = { ...session, expiresAt, sessionExpiresAt, kind: "console-session-token" };
  return { token: await sealData(data, { password: tokenPassword(), ttl: SESSION_TOKEN_TTL_SECONDS }), expiresAt };
}

/** A fresh token for a live one (sliding, never past the sign-in's end); undefined when there is nothing to renew. */
export async function renewSessionToken(request: Request): Promise<{ token: string; expiresAt: number } | undefined> {
  const token = bearerToken(request);
  if (!token) return undefined;
  const data = await readTokenData(token);
  if (!data || data.sessionExpiresAt <= Date.now() || !(await signInLive(data.signInId))) return undefined;
  const { kind: _kind, sessionExpiresAt, ...session } = data;
  return issueSessionToken(session, sessionExpiresAt);
}

async function readTokenData(token: string): Promise<TokenData | undefined> {
  if (!token || token.length > 4096) return undefined;
  try {
    const data = await unsealData<Partial<TokenData>>(token, { password: tokenPassword(), ttl: SESSION_TOKEN_TTL_SECONDS });
    if (data.kind !== "console-session-token" || typeof data.expiresAt !== "number" || data.expiresAt <= Date.now()) return undefined;
    if (typeof data.openAppId !== "string" || typeof data.tenantId !== "string" || typeof data.userId !== "string") return undefined;
    return {
      kind: "console-session-token",
      openAppId: data.openAppId,
      tenantId: data.tenantId,
      userId: data.userId,
      userName: String(data.userName ?? ""),
      ...(typeof data.tenantName === "string" ? { tenantName: data.tenantName } : {}),
      ...(typeof data.signInId === "string" ? { signInId: data.signInId } : {}),
      expiresAt: data.expiresAt,
      sessionExpiresAt: typeof data.sessionExpiresAt === "number" ? data.sessionExpiresAt : data.expiresAt,
    };
  } catch {
    return undefined;
  }
}

export async function readSessionToken(token: string): Promise<ConsoleSession | undefined> {
  const data = await readTokenData(token);
  if (!data || !(await signInLive(data.signInId))) return undefined;
  const { kind: _kind, sessionExpiresAt: _end, ...session } = data;
  return session;
}

export function bearerToken(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

/** The openAppId a request names (header, then query); the private deployment has only one. */
export function requestedOpenAppId(request: Request): string | undefined {
  if (isPrivateDeployment()) return PRIVATE_OPEN_APP_ID;
  const named = request.headers.get(OPEN_APP_ID_HEADER) ?? new URL(request.url).searchParams.get("openAppId") ?? undefined;
  return named && isOpenAppId(named) ? named : undefined;
}

/** Where the front end goes to authorize again (§5.2.9). */
export function startUrl(openAppId: string | undefined, returnTo?: string): string {
  const params = new URLSearchParams();
  if (openAppId && !isPrivateDeployment()) params.set("openAppId", openAppId);
  if (returnTo) params.set("returnTo", returnTo);
  const query = params.toString();
  return `/api/auth/start${query ? `?${query}` : ""}`;
}

/** The 401 of §5.2.9 for API requests: the front end follows `redirect`. */
export function reauthRequired(openAppId: string | undefined, message = "Sign-in required: authorize again to continue."): ReauthRequiredError {
  return new ReauthRequiredError({ message, redirect: startUrl(openAppId) });
}

/**
 * DEPLOYMENT_MODE=private authorizes only at installation (§5.2.9): without a session of its own a
 * request acts as the installation's user. The deployment is inside the product environment.
 */
async function privateInstallationSession(): Promise<ConsoleSession | undefined> {
  const installation = await latestInstallation(await getStore(), PRIVATE_OPEN_APP_ID);
  if (!installation) return undefined;
  return {
    openAppId: PRIVATE_OPEN_APP_ID,
    tenantId: installation.tenantId,
    userId: installation.installedBy ?? "",
    userName: installation.installedByName ?? "Platform user",
    ...(installation.tenantName ? { tenantName: installation.tenantName } : {}),
    expiresAt: Date.now() + SESSION_TTL_SECONDS * 1000,
  };
}

/** Picks the session of `named` (or the only one) among the cookie's entries and a bearer session. */
export async function selectSession(
  sessions: Record<string, ConsoleSession>,
  named: string | undefined,
  bearer?: ConsoleSession,
): Promise<{ session?: ConsoleSession; openAppId?: string }> {
  if (bearer && (!named || bearer.openAppId === named)) return { session: bearer, openAppId: bearer.openAppId };
  if (named && Object.hasOwn(sessions, named)) return { session: sessions[named], openAppId: named };
  if (isPrivateDeployment()) return { session: await privateInstallationSession(), openAppId: PRIVATE_OPEN_APP_ID };
  if (named) return { openAppId: named };
  const all = Object.values(sessions);
  return all.length === 1 ? { session: all[0], openAppId: all[0]!.openAppId } : {};
}

/** Every session a request carries: the cookie's entries (by openAppId) and the bearer token's. */
export async function requestSessions(request: Request): Promise<{ cookie: Record<string, ConsoleSession>; bearer?: ConsoleSession }> {
  const token = bearerToken(request);
  const bearer = token ? await readSessionToken(token) : undefined;
  return { cookie: await readCookieSessions(requestCookieStore(request)), ...(bearer ? { bearer } : {}) };
}

/** The session of the environment a request names; picks the only one when it names none. */
export async function findApiSession(request: Request): Promise<{ session?: ConsoleSession; openAppId?: string }> {
  const token = bearerToken(request);
  const bearer = token ? await readSessionToken(token) : undefined;
  return selectSession(await readCookieSessions(requestCookieStore(request)), requestedOpenAppId(request), bearer);
}

/** A request's session, or the error that answers it (401 reauth_required, §5.2.9). */
export type SessionCheck<S> = { ok: true; session: S } | { ok: false; error: ApiError };

/**
 * For the app's API routes (lib/http/route.ts): the session of the openAppId named by the request
 * (header `X-Open-App-Id` or query `openAppId`; the only session if there is just one), from the
 * cookie or the `Authorization: Bearer <sealed session token>` fallback. Otherwise 401 (§5.2.9).
 */
export async function requireApiSession(request: Request): Promise<SessionCheck<ConsoleSession>> {
  const { session, openAppId } = await findApiSession(request);
  return session ? { ok: true, session } : { ok: false, error: reauthRequired(openAppId) };
}
