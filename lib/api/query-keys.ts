import type { InputOf } from "@/lib/platform/operations";
import { apiRoutes, type BrowserOperationName, type Resource } from "@/lib/platform/routes";

/**
 * The console's query keys (TanStack Query), the same for the server's prefetch and the browser:
 * `["platform", resource, name, input]`. Invalidate a resource with `platformKeys.resource("customers")`;
 * a mutation's `invalidates` (the route table's) names the resources to refresh.
 */
export const platformKeys = {
  resource: (resource: Resource) => ["platform", resource] as const,
  call: <N extends BrowserOperationName>(name: N, input: InputOf<N>) => ["platform", apiRoutes[name].resource, name, input] as const,
};

/** The query keys a successful call of `name` makes stale. */
export function invalidatedKeys(name: BrowserOperationName): ReadonlyArray<readonly ["platform", Resource]> {
  const route: { resource: Resource; invalidates?: readonly Resource[] } = apiRoutes[name];
  return (route.invalidates ?? []).map((resource) => platformKeys.resource(resource));
}
