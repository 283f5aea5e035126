import { queryOptions } from "@tanstack/react-query";
import type { ConsoleSession } from "@/lib/auth/session";
import { OPEN_APP_ID_HEADER, storedSession } from "@/lib/auth/client-session";
import { appKeys, appRouteUrl } from "./app-routes";
import { pageOpenAppId } from "./browser-fetch";
import { errorFromResponse } from "./browser-fetch";
import { ReauthRequiredError } from "./api-error";
import { followReauth } from "./reauth";

/** What app-auth's `GET /api/auth/session` answers: the console session (ids and names) and the installation's state. */
export type ConsoleSessionInfo = {
  session: Omit<ConsoleSession, "expiresAt"> & { expiresAt?: number };
  installation: { status: "active" | "reauth_required" | "missing" };
};

export const sessionQueryKey = (openAppId: string | undefined) => appKeys.call("auth.session", openAppId);

/**
 * The shell's tenant, user and installation state. The server puts it in the hydrated cache when
 * the page had a session cookie; otherwise the browser asks app-auth (with the fallback token).
 */
export function consoleSessionQuery(openAppId: string | undefined = pageOpenAppId()) {
  return queryOptions({
    queryKey: sessionQueryKey(openAppId),
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<ConsoleSessionInfo> => {
      const headers = new Headers({ Accept: "application/json" });
      if (openAppId) {
        headers.set(OPEN_APP_ID_HEADER, openAppId);
        const stored = storedSession(openAppId);
        if (stored) headers.set("Authorization", `Bearer ${stored.token}`);
      }
      const response = await fetch(appRouteUrl("auth.session"), { headers, signal, cache: "no-store", credentials: "same-origin" });
      if (!response.ok) {
        const error = await errorFromResponse(response);
        // Without an environment, authorization leads to the home page's chooser: already there, stay.
        const choosing = !openAppId && new URLSearchParams(window.location.search).has("chooseEnvironment");
        if (error instanceof ReauthRequiredError && !choosing) followReauth(error.redirect, { location: window.location });
        throw error;
      }
      return (await response.json()) as ConsoleSessionInfo;
    },
  });
}
