import "server-only";
import { env } from "@/lib/env";
import { getStore, type Store } from "@/lib/store";
import { findEnvironment, saveEnvironment, type PlatformEnvironment } from "@/lib/store/installations";

/** The openAppId of the single environment of a private deployment (§5.2.9): it has no cloudinfo. */
export const PRIVATE_OPEN_APP_ID = "private";

export function isPrivateDeployment(): boolean {
  return env().platform.deploymentMode === "private";
}

/** The registered callback (§5.2 prerequisite); also the `redirect_uri` of every authorization. */
export function callbackUrl(): string {
  return `${env().appUrl}/api/auth/callback`;
}

export function clientCredentials() {
  const { clientId, clientSecret } = env().platform;
  return { clientId, clientSecret };
}

/** DEPLOYMENT_MODE=private: the one environment from configuration. */
export function privateEnvironment(): PlatformEnvironment {
  const { authUrl, apiUrl } = env().platform;
  return { openAppId: PRIVATE_OPEN_APP_ID, authDomain: authUrl, apiDomain: apiUrl };
}

/** The environment an openAppId names: from the store (recorded at install), or the private one. */
export async function resolveEnvironment(openAppId: string | undefined, store?: Store): Promise<PlatformEnvironment | undefined> {
  if (isPrivateDeployment()) {
    const environment = privateEnvironment();
    await saveEnvironment(store ?? (await getStore()), environment);
    return environment;
  }
  if (!openAppId || !isOpenAppId(openAppId)) return undefined;
  return findEnvironment(store ?? (await getStore()), openAppId);
}

/**
 * An environment id as the platform issues them (`oa-alpha-7f3c9e21`). Never a name plain objects
 * already answer (`toString`, `__proto__`, `constructor`): sessions are kept in objects keyed by it.
 */
export function isOpenAppId(value: string): boolean {
  return /^[\w.:-]{1,128}$/.test(value) && !(value in Object.prototype);
}

/** §5.2.8: the marketplace page after an installation. */
export function marketplaceUrl(authDomain: string): string {
  return `${authDomain}/application/mktapp/index.html?install=${encodeURIComponent(env().platform.appId)}#/market`;
}

/** `returnTo` when it is a same-origin path of the app (no scheme, no `//`, no backslash), else undefined. */
export function safeReturnTo(value: string | null | undefined): string | undefined {
  if (!value || value.length > 2048) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\") || /[\u0000-\u001f]/.test(value)) return undefined;
  try {
    const base = new URL(env().appUrl);
    const resolved = new URL(value, base);
    if (resolved.origin !== base.origin) return undefined;
    if (resolved.pathname.startsWith("/api/auth/")) return undefined;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return undefined;
  }
}

/** The app's page for an environment (home, with `openAppId` as §5.4.4 asks). */
export function homeUrl(openAppId: string): string {
  return isPrivateDeployment() ? "/" : `/?openAppId=${encodeURIComponent(openAppId)}`;
}
