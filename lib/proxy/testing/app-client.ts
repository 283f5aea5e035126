import type { BrowserFetchDeps } from "@/lib/api/browser-fetch";
import { APP } from "./proxy-deps";

/**
 * The browser client's deps for a test that drives the app's routes without a browser or a server:
 * alpha's environment, no stored session token and no reauth navigation, and every request handed to
 * `route` as Next would, from the app's own origin.
 */
export function routeClientDeps(route: (request: Request) => Promise<Response>, origin = APP): BrowserFetchDeps {
  return {
    openAppId: () => "alpha-app",
    sessionToken: () => undefined,
    storage: () => undefined,
    onReauth: () => {},
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set("origin", origin);
      return route(new Request(`${origin}${String(url)}`, { ...init, headers }));
    },
  };
}
