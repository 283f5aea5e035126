import "server-only";
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { env } from "@/lib/env";
import { requestIdOf } from "@/lib/http/route";
import { logger, redactUrl } from "@/lib/log";
import { callPlatform } from "@/lib/platform/client";
import { isRefusal, PlatformError } from "@/lib/platform/errors";
import { operations, type OutputOf } from "@/lib/platform/operations";
import { id } from "@/lib/platform/schema-helpers";
import { getStore } from "@/lib/store";
import { forgetDisconnected, saveEnvironment, saveInstallation, wasDisconnected, type PlatformEnvironment } from "@/lib/store/installations";
import { recordAudit } from "@/lib/http/audit-hook";
import { ApiError } from "@/lib/http/api-error";
import { readBodyText } from "@/lib/http/body";
import { NONCE_HEADER } from "@/lib/http/security-headers";
import { consumeFlowNonce, savePendingSignIn, takePendingSignIn, type PendingSignIn } from "@/lib/store/sign-ins";
import { LOCALE_COOKIE, pickLocale } from "@/lib/i18n/locales";
import { beginFlow, flowBinding, flowCookie, flowCookieName, openFlow, parseState, VERIFIER_FRAGMENT, type AuthFlow, type AuthPurpose } from "./auth-flow";
import { isAllowedOrigin, normalizeOrigin } from "./domains";
import { installationLifecycle } from "./lifecycle";
import { installLookupFailure } from "./install-lookup-failure";
import { timestampWithinWindow, verifyHmac } from "./hmac";
import { signedOutUrl } from "./sign-out";
import { TAB_STORAGE_JS } from "./tab-storage";
import { confirmPage, declinedPage, errorPage, handoffPage, postPage } from "./pages";
import {
  beginSignIn,
  endSignIns,
  issueSessionToken,
  removeSessionEntry,
  requestedOpenAppId,
  requestSessions,
  saveSessionEntry,
  SESSION_TTL_SECONDS,
  startUrl,
} from "./session";
import {
  callbackUrl,
  clientCredentials,
  homeUrl,
  isOpenAppId,
  isPrivateDeployment,
  marketplaceUrl,
  privateEnvironment,
  resolveEnvironment,
  safeReturnTo,
} from "./settings";

/**
 * The authorization flow of §5.2 / §5.4 on the app's side (ARCHITECTURE.md §4 "Install"):
 * `GET /api/auth/callback` (both arrivals; the authorization return only answers a page),
 * `POST /api/auth/callback` (that page's post: the code exchange), `GET /api/auth/start`,
 * `POST /api/auth/logout`.
 * Every failure is a clear 4xx page (502 when the platform could not answer) and stores nothing.
 */

class FlowFailure extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly retryUrl?: string,
  ) {
    super(title);
  }
}

const MAX_PARAMS = 24;
const MAX_KEY = 64;
const MAX_VALUE = 4096;

/** Query or form pairs, refused when too many, too long or repeated (an ambiguous signature). */
function checkedParams(pairs: Iterable<[string, string]>): Map<string, string> {
  const params = new Map<string, string>();
  let count = 0;
  for (const [k, v] of pairs) {
    count += 1;
    if (count > MAX_PARAMS || k.length > MAX_KEY || v.length > MAX_VALUE)
      throw new FlowFailure(400, "This sign-in link is malformed", "The link carries too many or too long parameters.");
    if (params.has(k)) throw new FlowFailure(400, "This sign-in link is malformed", `The parameter "${k.slice(0, 32)}" appears more than once.`);
    params.set(k, v);
  }
  return params;
}

function platformFailure(error: unknown, what: string, refusedDetail: string, retryUrl?: string): FlowFailure {
  if (isRefusal(error)) return new FlowFailure(400, `The platform refused ${what}`, refusedDetail, retryUrl);
  return new FlowFailure(502, "The platform is not answering", `The platform could not complete ${what}. Try again in a moment.`, retryUrl);
}

/** §4.7 / §5.4.1: the environment a one-time `getOpenAppIdToken` names, its domains as origins (domains.ts). */
async function lookUpEnvironment(extensionUrl: string, token: string): Promise<PlatformEnvironment> {
  const info = await callPlatform(operations["extension.cloudinfo"], { query: { token } }, { extensionUrl });
  if (!isOpenAppId(info.openAppId)) throw PlatformError.invalidResponse("cloudinfo: openAppId is not valid");
  const authDomain = normalizeOrigin(info.authDomain);
  const apiDomain = normalizeOrigin(info.apiDomain);
  if (!authDomain || !apiDomain) {
    throw new PlatformError({ kind: "rejected", code: "invalid_domain", message: "cloudinfo: authDomain or apiDomain is not an http(s) origin" });
  }
  return { openAppId: info.openAppId, authDomain, apiDomain, productType: info.productType ?? undefined, productVersion: info.productVersion ?? undefined };
}

const USER_NAME_FIELDS = ["name", "userName", "realName", "nickName", "displayName", "email", "loginName"];

function pick(record: Record<string, unknown>, names: string[]): unknown {
  return names.map((n) => record[n]).find((v) => v !== undefined && v !== null && v !== "");
}

function textOf(value: unknown): string | undefined {
  const text = typeof value === "string" ? value.trim() : "";
  return text && text.length <= 512 ? text : undefined;
}

/** Prefix of a staff key the app builds itself; the platform's own ids are digits, so the two never meet. */
export const DERIVED_STAFF_KEY_PREFIX = "k-";

/**
 * The stable key of a staff member whose users/current carries no id (the real v1 shape): the
 * SHA-256 of the tenant and the login name (else the e-mail), lowercased, as `k-` + 27 base64url
 * characters (fits the store's 32-character user columns). Undefined when neither is sent: such a
 * user then has no key, never a shared one. Its limits are in README ("Staff without a user id").
 */
export function derivedStaffKey(tenantId: string, user: Record<string, unknown>): string | undefined {
  const login = textOf(pick(user, ["loginName", "username", "userName", "email"]))?.toLowerCase();
  if (!login) return undefined;
  return `${DERIVED_STAFF_KEY_PREFIX}${createHash("sha256").update(`${tenantId}\u0000${login}`, "utf8").digest("base64url").slice(0, 27)}`;
}

/**
 * §4.7 shows only `tenantId` in the user object: its id and name are read from the usual fields, else
 * what is known. The real v1 shape `{email, name, tname, tid, loginName}` has no user id: the key
 * is then derived from the login name (`derivedStaffKey`), and empty only when even that is missing.
 */
export function currentUserOf(user: OutputOf<"users.current">): { tenantId: string; userId: string; userName: string; tenantName?: string } {
  const userId = id.safeParse(pick(user, ["id", "userId", "uid"]));
  return {
    tenantId: user.tenantId,
    userId: userId.success ? userId.data : (derivedStaffKey(user.tenantId, user) ?? ""),
    userName: textOf(pick(user, USER_NAME_FIELDS)) ?? (userId.success ? `User ${userId.data}` : "Platform user"),
    tenantName: textOf(pick(user, ["tenantName", "tenant_name", "tname"])),
  };
}

/**
 * Same-origin check of state-changing POSTs of our own pages: a browser's `Sec-Fetch-Site`, when
 * sent, must say same-origin (a cross-site page cannot make it lie, and a matching Origin beside a
 * cross-site mark is a forgery or a redirect through another site); then Origin, else that mark.
 */
function isSameOriginPost(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin) return origin === new URL(env().appUrl).origin;
  return site === "same-origin";
}

/**
 * Sends the browser to authorize with a server redirect (not a script), so that inside the
 * platform's iframe the navigation stays initiated by the platform's page and its `SameSite=Lax`
 * login cookie goes along (the authorize page then answers at once, ARCHITECTURE.md §4).
 */
async function startAuthorization(purpose: AuthPurpose, environment: PlatformEnvironment, returnTo?: string, restarted = false): Promise<Response> {
  const started = await beginFlow(purpose, environment, returnTo, restarted);
  // The verifier rides in the fragment: never sent to a server, carried by the browser to the callback.
  const location = `${started.authorizeUrl}#${VERIFIER_FRAGMENT}=${started.verifier}`;
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  headers.append("Set-Cookie", flowCookie(started.flow.nonce, started.flow.nonce));
  return new Response(null, { status: 302, headers });
}

/** §5.2.1, §5.4: the install entry (`redirectUrl`, `getOpenAppIdToken`). */
async function installEntry(request: Request, params: Map<string, string>, log: Logger): Promise<Response> {
  const { platform } = env();
  let environment: PlatformEnvironment;
  if (isPrivateDeployment()) {
    environment = privateEnvironment();
  } else {
    const token = params.get("getOpenAppIdToken");
    if (!token) throw new FlowFailure(400, "This install link is incomplete", "The platform did not send getOpenAppIdToken, so the environment cannot be identified.");
    let info;
    try {
      info = await lookUpEnvironment(platform.extensionUrl, token);
    } catch (error) {
      const failure = installLookupFailure(error, { extensionUrl: platform.extensionUrl, referer: request.headers.get("referer") });
      throw new FlowFailure(failure.status, failure.title, failure.detail);
    }
    // Refused before anything is sent to it.
    for (const domain of [info.authDomain, info.apiDomain]) {
      if (!isAllowedOrigin(domain, platform.domainAllowlist)) {
        log.warn({ openAppId: info.openAppId, domain }, "environment domain outside PLATFORM_DOMAIN_ALLOWLIST");
        throw new FlowFailure(403, "This platform environment is not allowed", `${domain} is not in this app's list of platform domains.`);
      }
    }
    environment = info;
  }
  // §5.4.3: the install request must come from the environment's own admin.
  const referer = request.headers.get("referer");
  if (referer) {
    let refererOrigin: string | undefined;
    try {
      refererOrigin = normalizeOrigin(new URL(referer).origin);
    } catch {
      refererOrigin = undefined;
    }
    if (refererOrigin !== normalizeOrigin(environment.authDomain)) {
      log.warn({ openAppId: environment.openAppId }, "install Referer does not match authDomain");
      throw new FlowFailure(403, "This install request did not come from your platform", "The page that sent you here is not the platform environment that the install link names.");
    }
  }
  await saveEnvironment(await getStore(), environment);
  log.info({ openAppId: environment.openAppId }, "install started");
  return startAuthorization("install", environment);
}

/** Stores the fallback session token in the tab, then moves on. */
const COMPLETE_SCRIPT = `${TAB_STORAGE_JS}(function(){var d=JSON.parse(document.getElementById("ec-data").textContent);try{T.set("ec.session."+d.openAppId,JSON.stringify({token:d.token,expiresAt:d.expiresAt}))}catch(e){}location.replace(d.target)})();`;

/** Marks the app page reached right after authorization: without a cookie it then uses the fallback token instead of authorizing again. */
export const AUTHORIZED_MARK = "authorized";

function withAuthorizedMark(path: string): string {
  const url = new URL(path, "http://app.invalid");
  url.searchParams.set(AUTHORIZED_MARK, "1");
  return `${url.pathname}${url.search}${url.hash}`;
}

const nonceOf = (request: Request) => request.headers.get(NONCE_HEADER) ?? undefined;

/** §5.3 and the sealed state: the flow an authorization return belongs to, or a clear refusal. */
async function checkedReturn(params: Map<string, string>): Promise<AuthFlow> {
  const { platform } = env();
  const missing = ["code", "timestamp", "hmac", "state"].filter((k) => !params.get(k));
  if (missing.length > 0) throw new FlowFailure(400, "This sign-in link is incomplete", `Missing: ${missing.join(", ")}.`);
  const state = parseState(params.get("state")!);
  if (!state) throw new FlowFailure(400, "This sign-in link is not ours", "Its state parameter was not issued by this app.");
  // §5.3, before anything else is done with the code.
  if (!verifyHmac(platform.clientSecret, params.entries(), params.get("hmac")!))
    throw new FlowFailure(400, "This sign-in link failed its signature check", "The platform's signature (hmac) does not match the parameters.");
  if (!timestampWithinWindow(params.get("timestamp")!, platform.hmacMaxAgeSeconds))
    throw new FlowFailure(400, "This sign-in link has expired", "Its timestamp is outside the accepted window. Start again.");
  const flow = await openFlow(state);
  if (!flow) throw new FlowFailure(400, "This sign-in link is not ours", "Its state was not issued by this app, or the sign-in took longer than 10 minutes. Start again.");
  return flow;
}

/** A new flow of the same purpose and return path, marked as the one restart a sign-in gets. */
function restartUrl(flow: AuthFlow): string {
  const url = new URL(startUrl(isPrivateDeployment() ? undefined : flow.openAppId, flow.returnTo), "http://app.invalid");
  if (flow.purpose === "install") url.searchParams.set("install", "1");
  url.searchParams.set("restart", "1");
  return `${url.pathname}${url.search}`;
}

/** Takes the verifier from the fragment (and out of the address), adds it to the form, posts it. */
const POST_SCRIPT = `(function(){var f=document.getElementById("ec-form");var v=null;try{var h=new URLSearchParams(location.hash.slice(1));v=h.get("${VERIFIER_FRAGMENT}");if(v)history.replaceState(null,"",location.pathname+location.search)}catch(e){}if(v){var i=document.createElement("input");i.type="hidden";i.name="verifier";i.value=v;f.appendChild(i)}f.submit()})();`;

/**
 * §5.2.4: the authorization return arrives as a GET, which never exchanges the code. Its page posts
 * the return to the same address with the browser's proof (the flow cookie goes along; the script
 * adds the fragment's verifier). Without the flow cookie the server cannot tell whether the fragment
 * came along (a consent page in between drops it), so it starts once more with a server redirect:
 * the navigation stays the platform's, whose sign-in then reaches its authorize page, which answers
 * at once with the fragment intact.
 */
async function authorizationReturnPage(request: Request, params: Map<string, string>): Promise<Response> {
  const flow = await checkedReturn(params);
  const cookie = readCookie(request, flowCookieName(flow.nonce));
  if (!cookie && !flow.restarted) return new Response(null, { status: 302, headers: { Location: restartUrl(flow), "Cache-Control": "no-store" } });
  return postPage("Signing in…", "/api/auth/callback", [...params.entries()], {}, POST_SCRIPT, nonceOf(request));
}

const MAX_RETURN_BODY_BYTES = 32 * 1024;

/** §5.2.4–§5.2.8: the return page's post (`code`, `timestamp`, `hmac`, `state`, and the tab's `verifier`). */
async function authorizationReturn(request: Request, log: Logger): Promise<Response> {
  if (!isSameOriginPost(request)) throw new FlowFailure(403, "This sign-in request was refused", "Cross-site sign-in requests are refused. Start again.");
  let text: string;
  try {
    text = await readBodyText(request, { limit: MAX_RETURN_BODY_BYTES });
  } catch (error) {
    if (error instanceof ApiError) throw new FlowFailure(error.status === 413 ? 413 : 400, "This sign-in request is malformed", error.message);
    throw error;
  }
  const params = checkedParams(new URLSearchParams(text).entries());
  if (params.has("confirm")) return confirmedReturn(request, params, log);
  const verifier = params.get("verifier");
  params.delete("verifier");
  const flow = await checkedReturn(params);
  const binding = flowBinding(flow, readCookie(request, flowCookieName(flow.nonce)), verifier);
  if (binding !== "cookie" && binding !== "tab") throw new FlowFailure(400, "This sign-in does not match this browser", "The sign-in was started in another browser or tab, or it has expired. Start again.");
  const retryUrl = flow.purpose === "install" ? undefined : startUrl(flow.openAppId, flow.returnTo);

  const store = await getStore();
  const environment = await resolveEnvironment(flow.openAppId, store);
  if (!environment) throw new FlowFailure(400, "Unknown platform environment", "Install the app again from the marketplace.");

  // Single use, decided by the store before the code leaves the app: a replay never reaches the
  // token endpoint, which would revoke the tokens already issued for this code (RFC 9700 §4.5).
  if (!(await consumeFlowNonce(store, flow.nonce, flow.expiresAt))) {
    log.warn({ openAppId: flow.openAppId, purpose: flow.purpose }, "authorization return replayed");
    throw new FlowFailure(400, "This sign-in link was already used", "Each sign-in link works once. Start again.", retryUrl);
  }

  let grant;
  try {
    // §5.2.5. Not idempotent: the client retries it only on a refused connection.
    grant = await callPlatform(
      operations["auth.exchangeCode"],
      { body: { grant_type: "authorization_code", code: params.get("code")!, redirect_uri: callbackUrl() } },
      { authUrl: environment.authDomain, clientCredentials: clientCredentials() },
    );
  } catch (error) {
    throw platformFailure(error, "the authorization code", "The code was already used or has expired. Start again.", retryUrl);
  }
  if (!grant.refresh_token) throw new FlowFailure(502, "The platform's answer is incomplete", "The token endpoint returned no refresh token.", retryUrl);
  let user;
  try {
    user = currentUserOf(await callPlatform(operations["users.current"], {}, { apiUrl: environment.apiDomain, accessToken: grant.access_token }));
  } catch (error) {
    throw platformFailure(error, "the current user", "The new access token was not accepted. Start again.", retryUrl);
  }

  const pending: PendingSignIn = {
    openAppId: environment.openAppId,
    tenantId: user.tenantId,
    purpose: flow.purpose,
    ...(flow.returnTo ? { returnTo: flow.returnTo } : {}),
    userId: user.userId,
    userName: user.userName,
    ...(user.tenantName ? { tenantName: user.tenantName } : {}),
    tokens: { accessToken: grant.access_token, refreshToken: grant.refresh_token, accessTokenExpiresAt: Date.now() + grant.expires_in * 1000 },
  };
  const headers = new Headers();
  headers.append("Set-Cookie", flowCookie(flow.nonce, undefined));
  if (binding === "cookie") return completeSignIn(request, pending, environment, headers, log);
  // Only the fragment's verifier vouches, and a link can carry one: the return may be another
  // person's (login CSRF). Nothing takes effect until the user confirms the identity it signs in as.
  const confirmId = await savePendingSignIn(store, pending);
  const { cookie } = await requestSessions(request);
  const current = Object.hasOwn(cookie, environment.openAppId) ? cookie[environment.openAppId] : undefined;
  log.info({ openAppId: environment.openAppId, purpose: flow.purpose }, "authorization awaits confirmation");
  return confirmPage(
    confirmLocale(request),
    { userName: pending.userName, tenantName: pending.tenantName ?? pending.tenantId },
    current && (current.tenantId !== pending.tenantId || current.userId !== pending.userId || !pending.userId) ? { userName: current.userName, tenantName: current.tenantName ?? current.tenantId } : undefined,
    confirmId,
    headers,
  );
}

/** The pick of the confirmation page's language (the console's own rule, lib/i18n/locales.ts). */
function confirmLocale(request: Request) {
  return pickLocale({ cookie: readCookie(request, LOCALE_COOKIE), acceptLanguage: request.headers.get("accept-language") });
}

/** The answer to "Continue as …?": the pending sign-in completes, or is dropped and nothing changes. */
async function confirmedReturn(request: Request, params: Map<string, string>, log: Logger): Promise<Response> {
  const store = await getStore();
  const pending = await takePendingSignIn(store, params.get("confirm") ?? "");
  if (!pending) throw new FlowFailure(400, "This sign-in has expired", "It was already answered or waited more than 10 minutes. Start again.");
  if (params.get("decision") !== "continue") {
    log.info({ openAppId: pending.openAppId }, "authorization declined at confirmation");
    return declinedPage(confirmLocale(request));
  }
  const environment = await resolveEnvironment(pending.openAppId, store);
  if (!environment) throw new FlowFailure(400, "Unknown platform environment", "Install the app again from the marketplace.");
  return completeSignIn(request, pending, environment, new Headers(), log);
}

/** Stores the installation's tokens and a new sign-in, and hands the browser its session. */
async function completeSignIn(request: Request, pending: PendingSignIn, environment: PlatformEnvironment, headers: Headers, log: Logger): Promise<Response> {
  const store = await getStore();
  const now = Date.now();
  const key = { openAppId: environment.openAppId, tenantId: pending.tenantId };
  // An admin disconnected the app from this tenant: only the marketplace's Install connects it again.
  if (pending.purpose !== "install" && (await wasDisconnected(store, key))) {
    throw new FlowFailure(409, "Engage Console is not installed", "An administrator disconnected Engage Console from this tenant and its data was deleted. Install it again from the platform's marketplace to use it.");
  }
  if (pending.purpose === "install") await forgetDisconnected(store, key);
  await saveInstallation(store, {
    openAppId: environment.openAppId,
    tenantId: pending.tenantId,
    tenantName: pending.tenantName,
    installedBy: pending.userId || undefined,
    installedByName: pending.userName,
    tokens: pending.tokens,
    keepInstaller: pending.purpose !== "install",
  });
  // Subscribers act before the session starts (the customer index starts afresh, README "Customer search").
  if (pending.purpose === "install") await installationLifecycle().publish({ type: "installed", key: { openAppId: environment.openAppId, tenantId: pending.tenantId } }, log);
  const session = await beginSignIn({
    openAppId: environment.openAppId,
    tenantId: pending.tenantId,
    userId: pending.userId,
    userName: pending.userName,
    ...(pending.tenantName ? { tenantName: pending.tenantName } : {}),
    expiresAt: now + SESSION_TTL_SECONDS * 1000,
  });
  await saveSessionEntry(request, headers, session);
  // The audit log: who signed in (or installed), from where the flow's own answer is decided.
  recordAudit({ key, actor: { id: pending.userId, name: pending.userName }, operation: pending.purpose === "install" ? "auth.install" : "auth.signIn", method: "POST", resource: "auth", at: now, status: 200, outcome: "done", requestId: requestIdOf(request), targets: [] });
  const { token, expiresAt } = await issueSessionToken(session);
  const target = pending.purpose === "install" ? marketplaceUrl(environment.authDomain) : withAuthorizedMark(pending.returnTo ?? homeUrl(environment.openAppId));
  log.info({ openAppId: environment.openAppId, tenantId: pending.tenantId, purpose: pending.purpose }, "authorization completed");
  return handoffPage(
    "Signed in",
    { openAppId: environment.openAppId, token, expiresAt, target },
    COMPLETE_SCRIPT,
    { href: target, label: "Continue", refresh: true },
    headers,
    nonceOf(request),
  );
}

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

async function guarded(request: Request, scope: string, work: (log: Logger) => Promise<Response>): Promise<Response> {
  const requestId = requestIdOf(request);
  const log = logger().child({ requestId, scope });
  log.info({ method: request.method, url: redactUrl(new URL(request.url).pathname + new URL(request.url).search) }, "request");
  try {
    return await work(log);
  } catch (error) {
    if (error instanceof FlowFailure) {
      log.info({ status: error.status, reason: error.title }, "authorization flow refused");
      return errorPage(error.status, error.title, error.detail, error.retryUrl, { "X-Request-Id": requestId });
    }
    log.error({ err: { name: (error as Error)?.name, message: (error as Error)?.message } }, "authorization flow failed");
    return errorPage(503, "Sign-in is temporarily unavailable", `Something went wrong on our side (request ${requestId}). Try again in a moment.`, undefined, { "X-Request-Id": requestId });
  }
}

export function handleCallback(request: Request): Promise<Response> {
  return guarded(request, "auth.callback", async (log) => {
    if (request.method === "POST") return authorizationReturn(request, log);
    const params = checkedParams(new URL(request.url).searchParams.entries());
    if (params.has("code")) return authorizationReturnPage(request, params);
    if (params.has("redirectUrl") || params.has("getOpenAppIdToken")) return installEntry(request, params, log);
    throw new FlowFailure(400, "This sign-in link is incomplete", "Open Engage Console from your platform's marketplace.");
  });
}

/** `GET /api/auth/start?openAppId=&returnTo=`: authorization again (§5.2.9), e.g. inside the iframe. */
export function handleStart(request: Request): Promise<Response> {
  return guarded(request, "auth.start", async () => {
    const url = new URL(request.url);
    const openAppId = isPrivateDeployment() ? undefined : (url.searchParams.get("openAppId") ?? undefined);
    if (!isPrivateDeployment()) {
      if (!openAppId) {
        // A plain tab names no environment: the console's home lets staff choose among the
        // installations this browser is signed in to, or says how to open the app from the admin.
        const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
        const location = `/?chooseEnvironment=1${returnTo ? `&returnTo=${encodeURIComponent(returnTo)}` : ""}`;
        return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
      }
      if (!isOpenAppId(openAppId)) throw new FlowFailure(400, "Unknown platform environment", "The openAppId is not valid.");
    }
    const environment = await resolveEnvironment(openAppId);
    if (!environment) throw new FlowFailure(404, "Engage Console is not installed in this environment", "Install it from your platform's marketplace first.");
    const returnTo = safeReturnTo(url.searchParams.get("returnTo")) ?? homeUrl(environment.openAppId);
    // `restart=1`: the callback's one new start when no flow cookie came back (authorizationReturnPage).
    // Anyone can ask for it: it only lets the fragment's verifier through, which is no proof on its own.
    const restarted = url.searchParams.get("restart") === "1";
    if (url.searchParams.get("install") === "1") return startAuthorization("install", environment, undefined, restarted);
    return startAuthorization("auth", environment, returnTo, restarted);
  });
}

/**
 * `POST /api/auth/logout`: ends the sign-in on the server (its cookie entry and fallback token are
 * refused from then on, on every instance) and forgets it in the cookie; one environment's, or every
 * one without openAppId. `?everywhere=1` ends every sign-in of the same user(s), in any browser.
 */
export function handleLogout(request: Request): Promise<Response> {
  return guarded(request, "auth.logout", async (log) => {
    if (!isSameOriginPost(request)) throw new FlowFailure(403, "Sign-out refused", "Cross-site sign-out requests are refused.");
    const openAppId = requestedOpenAppId(request);
    const scope = isPrivateDeployment() ? undefined : openAppId;
    const everywhere = new URL(request.url).searchParams.get("everywhere") === "1";
    const { cookie, bearer } = await requestSessions(request);
    const ending = [...Object.values(cookie), ...(bearer ? [bearer] : [])].filter((s) => !scope || s.openAppId === scope);
    const ended = ending.length > 0 ? await endSignIns(ending, everywhere) : 0;
    const requestId = requestIdOf(request);
    for (const session of ending) {
      recordAudit({ key: { openAppId: session.openAppId, tenantId: session.tenantId }, actor: { id: session.userId, name: session.userName }, operation: everywhere ? "auth.signOutEverywhere" : "auth.signOut", method: "POST", resource: "auth", at: Date.now(), status: 200, outcome: "done", requestId, targets: [] });
    }
    log.info({ openAppId: scope, everywhere, ended }, "signed out");
    const headers = new Headers({ "Cache-Control": "no-store" });
    await removeSessionEntry(request, headers, scope);
    const isForm = /application\/x-www-form-urlencoded|multipart\/form-data/.test(request.headers.get("content-type") ?? "");
    if (isForm) {
      headers.set("Location", signedOutUrl(openAppId, everywhere));
      return new Response(null, { status: 303, headers });
    }
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify({ signedOut: true, openAppId: openAppId ?? null, ended }), { status: 200, headers });
  });
}
