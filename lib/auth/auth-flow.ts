import "server-only";
import { randomBytes } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { env } from "@/lib/env";
import type { PlatformEnvironment } from "@/lib/store/installations";
import { callbackUrl, clientCredentials } from "./settings";

/**
 * One authorization in progress. `state` (§5.2.2) is `<purpose>.<nonce>`: the purpose is `install`
 * for an installation (the spec's convention) or `auth` otherwise. The details (nonce, purpose,
 * environment, return path) are sealed and bound to the browser that started the flow: in a
 * short-lived cookie named after the nonce and, for browsers that refuse the cookie, in the tab's
 * sessionStorage (only the app's own origin can read either, so a state made elsewhere never matches).
 */

export type AuthPurpose = "install" | "auth";

export type AuthFlow = { nonce: string; purpose: AuthPurpose; openAppId: string; returnTo?: string };

/** Ten minutes to log in and consent. */
export const FLOW_TTL_SECONDS = 600;
const STATE_PATTERN = /^(install|auth)\.([A-Za-z0-9_-]{32})$/;

function flowPassword(): string {
  return `${env().sessionPassword}:auth-flow`;
}

export function flowCookieName(nonce: string): string {
  return `ec_flow_${nonce.slice(0, 16)}`;
}

/** `Set-Cookie` of a flow: `HttpOnly; Secure; SameSite=None; Partitioned` so it also works framed. */
export function flowCookie(nonce: string, sealed: string | undefined): string {
  const base = `${flowCookieName(nonce)}=${sealed ?? ""}; Path=/api/auth; HttpOnly; Secure; SameSite=None; Partitioned`;
  return sealed ? `${base}; Max-Age=${FLOW_TTL_SECONDS}` : `${base}; Max-Age=0`;
}

export function parseState(state: string): { purpose: AuthPurpose; nonce: string } | undefined {
  const match = STATE_PATTERN.exec(state);
  return match ? { purpose: match[1] as AuthPurpose, nonce: match[2]! } : undefined;
}

export type StartedFlow = { flow: AuthFlow; state: string; sealed: string; authorizeUrl: string };

/** §5.2.3: a new flow and the authorize URL of its environment (§4.7 parameters). */
export async function beginFlow(purpose: AuthPurpose, environment: PlatformEnvironment, returnTo?: string): Promise<StartedFlow> {
  const nonce = randomBytes(24).toString("base64url");
  const flow: AuthFlow = { nonce, purpose, openAppId: environment.openAppId, ...(returnTo ? { returnTo } : {}) };
  const state = `${purpose}.${nonce}`;
  const sealed = await sealData(flow, { password: flowPassword(), ttl: FLOW_TTL_SECONDS });
  const query = new URLSearchParams({
    client_id: clientCredentials().clientId,
    redirect_uri: callbackUrl(),
    response_type: "code",
    state,
  });
  return { flow, state, sealed, authorizeUrl: `${environment.authDomain}/oauth2/authorize?${query.toString()}` };
}

/** The flow a sealed value carries, if it is intact, unexpired and matches `state` exactly. */
export async function openFlow(sealed: string | undefined, state: { purpose: AuthPurpose; nonce: string }): Promise<AuthFlow | undefined> {
  if (!sealed || sealed.length > 4096) return undefined;
  try {
    const flow = await unsealData<Partial<AuthFlow>>(sealed, { password: flowPassword(), ttl: FLOW_TTL_SECONDS });
    if (flow.nonce !== state.nonce || flow.purpose !== state.purpose || typeof flow.openAppId !== "string") return undefined;
    return { nonce: flow.nonce, purpose: flow.purpose, openAppId: flow.openAppId, returnTo: flow.returnTo };
  } catch {
    return undefined;
  }
}
