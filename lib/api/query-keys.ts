import type { InputOf, Resource } from "@/lib/platform/operations";
import { operationRoutes, type BrowserOperationName } from "@/lib/platform/operation-routes";

/**
 * The console's query keys: exactly `platformKeys` of lib/platform/operations.ts
 * (`["platform", resource, name, input]`, tested equal), taken from the zod-free route table so the
 * browser bundle carries no schemas. Invalidate a resource with `queryKeys.resource("customers")`.
 */
export const queryKeys = {
  all: ["platform"] as const,
  resource: (resource: Resource) => ["platform", resource] as const,
  operation: <N extends BrowserOperationName>(name: N) => ["platform", operationRoutes[name].resource, name] as const,
  call: <N extends BrowserOperationName>(name: N, input: InputOf<N>) => ["platform", operationRoutes[name].resource, name, input] as const,
};

/** The keys a successful call of `name` makes stale (the table's `invalidates`). */
export function invalidatedBy(name: BrowserOperationName): ReadonlyArray<readonly ["platform", Resource]> {
  return operationRoutes[name].invalidates.map((resource) => queryKeys.resource(resource));
}
