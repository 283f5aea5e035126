import type { InstallationKey } from "@/lib/store/installations";
import type { ProxyDeps } from "../proxy";
import { SANDBOX_ALPHA_SESSION, signedIn } from "@/lib/platform/testing/fake-session";
import { silentLog } from "@/lib/platform/testing/silent-log";

/**
 * The deps of a route that calls the platform, for a test or benchmark against a sandbox at `apiUrl`:
 * signed in as `session` (alpha's installation by default), calls made with `token` (a function
 * when it changes, e.g. after a reset), never "authorize again", and a silent log.
 */
export function sandboxProxyDeps(apiUrl: string, token: string | (() => string), session: InstallationKey = SANDBOX_ALPHA_SESSION): ProxyDeps {
  return {
    requireSession: signedIn(session),
    getAccessToken: async () => ({ accessToken: typeof token === "string" ? token : token(), apiUrl }),
    isReauthRequired: () => false,
    log: silentLog,
  };
}
