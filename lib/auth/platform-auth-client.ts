import "server-only";
import { z } from "zod";
import { parseJson } from "@/lib/platform/json";
import { normalizeOrigin } from "./domains";

/**
 * The platform calls of the authorization flow (§4.7): cloudinfo, the token endpoint (code and
 * refresh grants, form-urlencoded) and users/current. Failures are one typed error: `rejected` when
 * the platform refused (HTTP 4xx, or an error body) and `unavailable` when it could not answer
 * (network error, timeout, 5xx, unreadable body). Messages never contain a token, code or secret.
 */

export class PlatformAuthError extends Error {
  constructor(
    readonly kind: "rejected" | "unavailable",
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PlatformAuthError";
  }
}

const TIMEOUT_MS = 10_000;

async function call(url: string, init: RequestInit, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS), cache: "no-store" });
  } catch {
    throw new PlatformAuthError("unavailable", `${what}: the platform could not be reached`);
  }
  const text = await response.text().catch(() => "");
  if (response.status >= 500) throw new PlatformAuthError("unavailable", `${what}: the platform answered HTTP ${response.status}`, response.status);
  if (response.status >= 400) throw new PlatformAuthError("rejected", `${what}: the platform refused (HTTP ${response.status})`, response.status);
  if (response.status !== 200) throw new PlatformAuthError("unavailable", `${what}: unexpected HTTP ${response.status}`, response.status);
  try {
    return parseJson(text);
  } catch {
    throw new PlatformAuthError("unavailable", `${what}: the platform's answer is not JSON`);
  }
}

/** A 64-bit id as a decimal string (§2): JSON numbers, bigints and digit strings are accepted. */
const id = z.union([z.bigint(), z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]).transform((v) => String(v));
const text = z.string().trim().min(1).max(512);

const cloudInfoSchema = z.object({
  openAppId: z.string().trim().min(1).max(128).regex(/^[\w.:-]+$/),
  authDomain: text,
  apiDomain: text,
  productType: z.string().max(128).optional().catch(undefined),
  productVersion: z.string().max(64).optional().catch(undefined),
});

export type CloudInfo = { openAppId: string; authDomain: string; apiDomain: string; productType?: string; productVersion?: string };

/** §4.7 / §5.4.1: exchanges the one-time `getOpenAppIdToken`. Domains come back as origins (domains.ts). */
export async function fetchCloudInfo(extensionUrl: string, token: string): Promise<CloudInfo> {
  const body = await call(`${extensionUrl}/cloudinfo?token=${encodeURIComponent(token)}`, { method: "GET" }, "cloudinfo");
  if (body && typeof body === "object" && "error" in body) throw new PlatformAuthError("rejected", "cloudinfo: the token was refused");
  const parsed = cloudInfoSchema.safeParse(body);
  if (!parsed.success) throw new PlatformAuthError("unavailable", "cloudinfo: the answer lacks openAppId, authDomain or apiDomain");
  const authDomain = normalizeOrigin(parsed.data.authDomain);
  const apiDomain = normalizeOrigin(parsed.data.apiDomain);
  if (!authDomain || !apiDomain) throw new PlatformAuthError("rejected", "cloudinfo: authDomain or apiDomain is not an http(s) origin");
  return { ...parsed.data, authDomain, apiDomain };
}

const tokenSchema = z.object({
  access_token: z.string().min(1).max(4096),
  refresh_token: z.string().min(1).max(4096).optional(),
  expires_in: z.coerce.number().int().positive().max(10 * 365 * 86400).optional(),
  token_type: z.string().optional(),
});

export type TokenGrant = { accessToken: string; refreshToken?: string; expiresInSeconds: number };

export type ClientCredentials = { clientId: string; clientSecret: string };

async function tokenRequest(authDomain: string, form: Record<string, string>, what: string): Promise<TokenGrant> {
  const body = await call(
    `${authDomain}/oauth2/token`,
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form).toString(),
    },
    what,
  );
  if (body && typeof body === "object" && ("error" in body || "error_code" in body)) throw new PlatformAuthError("rejected", `${what}: the grant was refused`);
  const parsed = tokenSchema.safeParse(body);
  if (!parsed.success) throw new PlatformAuthError("unavailable", `${what}: the answer lacks access_token`);
  // §4.7 / §8: 7200 s when the platform does not say.
  return { accessToken: parsed.data.access_token, refreshToken: parsed.data.refresh_token, expiresInSeconds: parsed.data.expires_in ?? 7200 };
}

/** §5.2.5: exchanges the authorization code; `redirectUri` is the one sent to authorize (§4.7). */
export function exchangeCode(authDomain: string, client: ClientCredentials, code: string, redirectUri: string): Promise<TokenGrant> {
  return tokenRequest(
    authDomain,
    { client_id: client.clientId, client_secret: client.clientSecret, grant_type: "authorization_code", code, redirect_uri: redirectUri },
    "code exchange",
  );
}

/** §5.2.7: a new access token (and, with rotation, a new refresh token). */
export function refreshGrant(authDomain: string, client: ClientCredentials, refreshToken: string): Promise<TokenGrant> {
  return tokenRequest(
    authDomain,
    { client_id: client.clientId, client_secret: client.clientSecret, grant_type: "refresh_token", refresh_token: refreshToken },
    "token refresh",
  );
}

export type CurrentUser = { tenantId: string; userId: string; userName: string; tenantName?: string };

function pick(record: Record<string, unknown>, names: string[]): unknown {
  for (const n of names) if (record[n] !== undefined && record[n] !== null && record[n] !== "") return record[n];
  return undefined;
}

/**
 * §4.7 users/current: the user object contains `tenantId`; the spec shows no other field, so the id
 * and name are read from the usual names and default to what is known. Failure: `error_code` (§7.4).
 */
export async function fetchCurrentUser(apiDomain: string, accessToken: string): Promise<CurrentUser> {
  // §4.7 names a bearer token; §5.1.1 puts `access_token` on every /v1 call: both are sent.
  const body = await call(
    `${apiDomain}/v1/users/current?access_token=${encodeURIComponent(accessToken)}`,
    { method: "GET", headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" } },
    "users/current",
  );
  if (!body || typeof body !== "object") throw new PlatformAuthError("unavailable", "users/current: unexpected answer");
  const outer = body as Record<string, unknown>;
  if (outer.error_code !== undefined || outer.error !== undefined) throw new PlatformAuthError("rejected", "users/current: the platform refused the token");
  const user = (["data", "user"].map((k) => outer[k]).find((v) => v && typeof v === "object" && "tenantId" in v) ?? outer) as Record<string, unknown>;
  const tenantId = id.safeParse(user.tenantId);
  if (!tenantId.success) throw new PlatformAuthError("unavailable", "users/current: the answer has no valid tenantId");
  const userId = id.safeParse(pick(user, ["id", "userId", "uid"]));
  const name = text.safeParse(pick(user, ["name", "userName", "realName", "nickName", "displayName", "email", "loginName"]));
  const tenantName = text.safeParse(pick(user, ["tenantName", "tenant_name"]));
  return {
    tenantId: tenantId.data,
    userId: userId.success ? userId.data : "",
    userName: name.success ? name.data : userId.success ? `User ${userId.data}` : "Platform user",
    tenantName: tenantName.success ? tenantName.data : undefined,
  };
}
