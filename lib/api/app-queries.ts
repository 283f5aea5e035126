import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { AppInputOf, AppOutputOf } from "@/lib/openapi/app-operations";
import { appInvalidatedKeys, appKeys, type AppInput, type ConsoleRouteName } from "@/lib/http/app-routes";
import { appCall, pageOpenAppId, type AppCall } from "./browser-fetch";

/**
 * `queryOptions` for a read of the app's own routes, as `platformQuery` is for the platform's: the
 * key is `appKeys.call` (with the environment), the fetch is `appCall`. Pages and hooks never write
 * a path or a key themselves.
 *
 *   useQuery(appQuery("shops.get", { params: { id } }))
 */
export function appQuery<N extends ConsoleRouteName>(name: N, input: AppInputOf<N>, openAppId: string | undefined = pageOpenAppId(), call: AppCall = appCall) {
  return queryOptions({
    queryKey: appKeys.call(name, openAppId, input as AppInput),
    queryFn: ({ signal }) => call(name, input, { signal }) as Promise<AppOutputOf<N>>,
  });
}

/** After a successful call of `name`: every cached query (the app's and the proxy's) of the resources it makes stale. */
export async function invalidateAppAfter(queryClient: QueryClient, name: ConsoleRouteName): Promise<void> {
  await Promise.all(appInvalidatedKeys(name).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
