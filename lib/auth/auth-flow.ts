import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { env } from "@/lib/env";
import { operationUrl, routes } from "@/lib/platform/routes";
import type { PlatformEnvironment } from "@/lib/store/installations";
import { callbackUrl, clientCredentials } from "./settings";

/**
 * One authorization in progress. `state` (§5.2.2) is `<purpose>.<sealed flow>`: the purpose is
 * `install` for an installation (the spec's convention) or `auth` otherwise; the sealed flow
 * (iron-session seal, 10 minutes) carries a nonce, the environment and the return path, so no
 * server-side storage is needed and nobody else can make one. The flow is bound to the browser by
 * a short-lived cookie holding the nonce (`HttpOnly; Secure; SameSite=None; Partitioned`).
 *
 * Where a framed browser refuses even that cookie, the tab proves itself with a one-time verifier
 * that only ever lives in the browser: `/api/auth/start` puts it in the fragment of its redirect to
 * authorize (`#ecv=…`); a fragment is never sent to a server, and browsers carry it over the
 * platform's redirect back to the callback (Fetch: a Location without a fragment inherits it). The
 * sealed flow holds only its SHA-256 (`tab`). It does not live in sessionStorage: a tab would have
 * to navigate to authorize from its own script, and from the app's cross-site frame that navigation
 * reaches the platform without the platform's SameSite=Lax sign-in (Chromium shows its login).
 * The callback's GET only returns a page; the code is exchanged on that page's same-origin POST,
 * which carries the cookie and the verifier. No request header (Sec-Fetch-Dest or any other) is a
 * reason to go on: a client that holds a callback URL holds neither. The verifier is no proof of the
 * browser on its own, though: an attacker who starts a flow knows its verifier and can send his
 * return with it in a link (login CSRF), so a return only the verifier vouches for completes after
 * the user confirms the identity (flow-handlers.ts). The state's nonce is then redeemed once in the
 * store (lib/store/sign-ins.ts) before the code is exchanged.
 */

export type AuthPurpose = "install" | "auth";

export type AuthFlow = {
  nonce: string;
  purpose: AuthPurpose;
  openAppId: string;
  returnTo?: string;
  /** SHA-256 (base64url) of the flow's one-time verifier (the redirect's fragment). */
  tab?: string;
  /** Started again by the callback because no flow cookie came back (only once per sign-in). */
  restarted?: true;
  /** When the sealed flow stops being accepted (epoch ms). */
  expiresAt: number;
};

/** A verifier's hash: SHA-256, base64url without padding. */
const TAB_HASH_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The fragment parameter that carries the verifier to the callback page. */
export const VERIFIER_FRAGMENT = "ecv";
const VERIFIER_PATTERN = /^[A-Za-z0-9_-]{43,128}$/;

export function tabHashOf(verifier: string): string {
  return createHash("sha256").update(verifier, "utf8").digest("base64url");
}

/** Ten minutes to log in and consent. */
export const FLOW_TTL_SECONDS = 600;
const STATE_PATTERN = /^(install|auth)\.([A-Za-z0-9*~_.-]{20,2000})$/;

function flowPassword(): string {
  return `${env().sessionPassword}:auth-flow`;
}

export function flowCookieName(nonce: string): string {
  return `ec_flow_${nonce.slice(0, 16)}`;
}

/** `Set-Cookie` of a flow: `HttpOnly; Secure; SameSite=None; Partitioned` so it also works framed. */
export function flowCookie(nonce: string, value: string | undefined): string {
  const base = `${flowCookieName(nonce)}=${value ?? ""}; Path=/api/auth; HttpOnly; Secure; SameSite=None; Partitioned`;
  return value ? `${base}; Max-Age=${FLOW_TTL_SECONDS}` : `${base}; Max-Age=0`;
}

export function parseState(state: string): { purpose: AuthPurpose; sealed: string } | undefined {
  const match = STATE_PATTERN.exec(state);
  return match ? { purpose: match[1] as AuthPurpose, sealed: match[2]! } : undefined;
}

export type StartedFlow = { flow: AuthFlow; state: string; authorizeUrl: string; verifier: string };

/** §5.2.3: a new flow and the authorize URL of its environment (§4.7 parameters). */
export async function beginFlow(purpose: AuthPurpose, environment: PlatformEnvironment, returnTo?: string, restarted = false): Promise<StartedFlow> {
  const nonce = randomBytes(24).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  const flow: AuthFlow = {
    nonce,
    purpose,
    openAppId: environment.openAppId,
    ...(returnTo ? { returnTo } : {}),
    tab: tabHashOf(verifier),
    ...(restarted ? { restarted: true as const } : {}),
    expiresAt: Date.now() + FLOW_TTL_SECONDS * 1000,
  };
  const state = `${purpose}.${await sealData(flow, { password: flowPassword(), ttl: FLOW_TTL_SECONDS })}`;
  const query = { client_id: clientCredentials().clientId, redirect_uri: callbackUrl(), response_type: "code", state };
  return { flow, state, verifier, authorizeUrl: operationUrl(routes["auth.authorize"], { query }, environment.authDomain) };
}

/** The flow a state carries, if it is ours, intact, unexpired and of the same purpose. */
export async function openFlow(state: { purpose: AuthPurpose; sealed: string }): Promise<AuthFlow | undefined> {
  try {
    const flow = await unsealData<Partial<AuthFlow>>(state.sealed, { password: flowPassword(), ttl: FLOW_TTL_SECONDS });
    if (typeof flow.nonce !== "string" || flow.purpose !== state.purpose || typeof flow.openAppId !== "string") return undefined;
    if (typeof flow.expiresAt !== "number" || flow.expiresAt <= Date.now()) return undefined;
    return {
      nonce: flow.nonce,
      purpose: flow.purpose,
      openAppId: flow.openAppId,
      returnTo: typeof flow.returnTo === "string" ? flow.returnTo : undefined,
      ...(typeof flow.tab === "string" && TAB_HASH_PATTERN.test(flow.tab) ? { tab: flow.tab } : {}),
      ...(flow.restarted === true ? { restarted: true as const } : {}),
      expiresAt: flow.expiresAt,
    };
  } catch {
    return undefined;
  }
}

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * How the browser proves it started the flow: the flow's cookie, or (`tab`, which still needs the
 * user's confirmation) the verifier whose hash the flow carries. Anything else (whatever its
 * headers) is `none` or, for a wrong proof, `mismatch`.
 */
export function flowBinding(flow: AuthFlow, cookieValue: string | undefined, verifier: string | undefined): "cookie" | "tab" | "none" | "mismatch" {
  if (cookieValue !== undefined && cookieValue !== "" && equalText(cookieValue, flow.nonce)) return "cookie";
  if (flow.tab && verifier !== undefined && VERIFIER_PATTERN.test(verifier) && equalText(tabHashOf(verifier), flow.tab)) return "tab";
  return cookieValue || verifier ? "mismatch" : "none";
}
