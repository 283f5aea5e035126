import { queryOptions } from "@tanstack/react-query";
import type { ConsoleSessionInfo } from "@/lib/auth/session";
import { appKeys } from "@/lib/http/app-routes";
import { createAppCall, pageOpenAppId } from "./browser-fetch";
import { followReauth } from "./reauth";

export const sessionQueryKey = (openAppId: string | undefined) => appKeys.call("auth.session", openAppId);

/**
 * The shell's tenant, user and installation state. The server puts it in the hydrated cache when
 * the page had a session cookie; otherwise the browser asks app-auth (with the fallback token).
 */
export function consoleSessionQuery(openAppId: string | undefined = pageOpenAppId()) {
  return queryOptions({
    queryKey: sessionQueryKey(openAppId),
    staleTime: 5 * 60_000,
    queryFn: ({ signal }): Promise<ConsoleSessionInfo> =>
      createAppCall({
        openAppId: () => openAppId,
        onReauth: (redirect) => {
          // Without an environment, authorization leads to the home page's chooser: already there, stay.
          const choosing = !openAppId && new URLSearchParams(window.location.search).has("chooseEnvironment");
          if (!choosing) followReauth(redirect, { location: window.location });
        },
      })("auth.session", {}, { signal }),
  });
}
