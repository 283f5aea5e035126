import "server-only";
import type { InstallationKey } from "@/lib/store/installations";
import { callPlatform, type CallOptions } from "./client";
import { operations, type InputOf, type OperationName, type OutputOf } from "./operations";

/**
 * The one way server code calls the platform for an installation (the proxy, the app's own routes,
 * the server prefetch of console pages, the customer index's background sync): the installation's
 * access token and API base URL from `tokens` (app-auth's `getAccessToken`, which refreshes ahead of
 * expiry, or the proxy's short memory of it), and when the platform refuses that token, a fresh one
 * asked for with the refused one named, so a replacement another caller already made is used and a
 * superseded replacement is refreshed again (the client repeats the call, §5.2.7).
 */

/** A platform call by operation name, typed by the table. */
export type PlatformCall = <N extends OperationName>(name: N, input: InputOf<N>) => Promise<OutputOf<N>>;

/** Where an installation's current token comes from. */
export type InstallationTokens = (key: InstallationKey, options?: { forceRefresh?: boolean; rejectedAccessToken?: string }) => Promise<{ accessToken: string; apiUrl: string }>;

/** The client options of a call for `key` (asks for the token now: a refused installation throws here). */
export async function installationCallOptions(key: InstallationKey, tokens: InstallationTokens, extra: Partial<CallOptions> = {}): Promise<CallOptions> {
  const first = await tokens(key);
  return {
    ...extra,
    apiUrl: first.apiUrl,
    accessToken: first.accessToken,
    getToken: async ({ forceRefresh, rejectedToken }) => (await tokens(key, { forceRefresh, rejectedAccessToken: rejectedToken })).accessToken,
  };
}

/** A caller bound to options already made (several calls, one token look-up). */
export function callerWith(options: CallOptions): PlatformCall {
  return ((name: OperationName, input: unknown) => callPlatform(operations[name], input as never, options)) as PlatformCall;
}

/** A caller for `key` that looks the token up on every call (long-lived callers: the background sync). */
export function installationCaller(key: InstallationKey, tokens: InstallationTokens, extra: Partial<CallOptions> = {}): PlatformCall {
  return (async (name: OperationName, input: unknown) => callerWith(await installationCallOptions(key, tokens, extra))(name as never, input as never)) as PlatformCall;
}
