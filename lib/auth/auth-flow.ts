import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
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
 * Where a framed browser refuses even that cookie, the callback accepts a flow without it only for
 * a navigation inside a frame (`Sec-Fetch-Dest: iframe`, set by the browser): only the platform's
 * origins may frame the app (CSP frame-ancestors), and whatever happens there stays in the frame's
 * cookie partition. A top-level callback always needs the cookie.
 */

export type AuthPurpose = "install" | "auth";

export type AuthFlow = { nonce: string; purpose: AuthPurpose; openAppId: string; returnTo?: string };

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

export type StartedFlow = { flow: AuthFlow; state: string; authorizeUrl: string };

/** §5.2.3: a new flow and the authorize URL of its environment (§4.7 parameters). */
export async function beginFlow(purpose: AuthPurpose, environment: PlatformEnvironment, returnTo?: string): Promise<StartedFlow> {
  const nonce = randomBytes(24).toString("base64url");
  const flow: AuthFlow = { nonce, purpose, openAppId: environment.openAppId, ...(returnTo ? { returnTo } : {}) };
  const state = `${purpose}.${await sealData(flow, { password: flowPassword(), ttl: FLOW_TTL_SECONDS })}`;
  const query = { client_id: clientCredentials().clientId, redirect_uri: callbackUrl(), response_type: "code", state };
  return { flow, state, authorizeUrl: operationUrl(routes["auth.authorize"], { query }, environment.authDomain) };
}

/** The flow a state carries, if it is ours, intact, unexpired and of the same purpose. */
export async function openFlow(state: { purpose: AuthPurpose; sealed: string }): Promise<AuthFlow | undefined> {
  try {
    const flow = await unsealData<Partial<AuthFlow>>(state.sealed, { password: flowPassword(), ttl: FLOW_TTL_SECONDS });
    if (typeof flow.nonce !== "string" || flow.purpose !== state.purpose || typeof flow.openAppId !== "string") return undefined;
    return { nonce: flow.nonce, purpose: flow.purpose, openAppId: flow.openAppId, returnTo: flow.returnTo };
  } catch {
    return undefined;
  }
}

/** How the browser vouches for a flow: its cookie, or (cookie refused) a framed navigation. */
export function flowBinding(request: Request, flow: AuthFlow, cookieValue: string | undefined): "cookie" | "framed" | "mismatch" {
  if (cookieValue !== undefined) {
    const a = Buffer.from(cookieValue);
    const b = Buffer.from(flow.nonce);
    return a.length === b.length && timingSafeEqual(a, b) ? "cookie" : "mismatch";
  }
  return request.headers.get("sec-fetch-dest") === "iframe" ? "framed" : "mismatch";
}
