/**
 * THE routes of the platform (§4.1–§4.8, authorization included): for every operation, what it is
 * without its schemas. Written once, here. `operations.ts` attaches the zod schemas to these names
 * (a missing or extra name is a type error) for the typed client, the proxy and the sandbox's
 * /openapi.json. The browser (`lib/api`) reads `apiRoutes` and `operationUrl` of this module,
 * which imports nothing: no zod and no schema reach the console's bundle.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Which address of the environment an operation is on (§4, §4.7). */
export type OperationBase = "api" | "auth" | "extension";

/**
 * How the call is authorized: `query` = `access_token` query parameter (§5.1.1); `bearer` = the
 * same and `Authorization: Bearer` beside it (§4.7 users/current); `client` = client id + secret in the form body
 * (token grants); `none` = no credential (cloudinfo takes its one-time token as input).
 */
export type OperationAuth = "query" | "bearer" | "client" | "none";

export type Resource =
  | "customers"
  | "identities"
  | "events"
  | "deals"
  | "lists"
  | "listMembers"
  | "tagDimensions"
  | "tags"
  | "customerTags"
  | "media"
  | "stores"
  | "storeGroups"
  | "auth";

/** A route as written in the table: what is left out takes the defaults of `Route`. */
type RouteSpec = {
  method: HttpMethod;
  /** Path template under the base address, e.g. `/v1/customers/{id}`. */
  path: string;
  /** The resource it reads or writes: the second element of its query keys. */
  resource: Resource;
  /** Resources whose cached queries a successful call makes stale (mutations). */
  invalidates?: readonly Resource[];
  base?: OperationBase;
  auth?: OperationAuth;
  idempotent?: boolean;
  /** A browser redirect (authorize), never called by the server. */
  redirect?: true;
  /** Request body encoding; `json` unless the spec says otherwise (token grants are form-urlencoded). */
  bodyEncoding?: "json" | "form";
};

export type Route<Name extends string = string> = RouteSpec & {
  name: Name;
  /** Default `api`. */
  base: OperationBase;
  /** Default `query`. */
  auth: OperationAuth;
  /** Safe to repeat: the client retries only these (network errors, 429, 502–504). Default: GET. */
  idempotent: boolean;
  /** Reachable from the browser through `/api/platform/v1/...`: the routes of `apiRoutes`. */
  browser: boolean;
};

/** The resource API (§4.1–§4.6, §4.8) and users/current (§4.7): what the browser may call through the proxy. */
export const apiRoutes = {
  // §4.1 Customers and identities
  "customers.createWithIdentities": { method: "POST", path: "/v1/customerandidentities", resource: "customers", invalidates: ["customers", "identities"] },
  "customers.upsert": { method: "POST", path: "/v1/customers", resource: "customers", invalidates: ["customers"] },
  "customers.update": { method: "PUT", path: "/v1/customers/{id}", resource: "customers", invalidates: ["customers"] },
  "customers.delete": { method: "DELETE", path: "/v1/customers/{id}", resource: "customers", invalidates: ["customers", "identities", "listMembers", "customerTags"] },
  "customers.get": { method: "GET", path: "/v1/customers/{id}", resource: "customers" },
  "customers.list": { method: "GET", path: "/v1/customers", resource: "customers" },
  "customers.count": { method: "GET", path: "/v1/customers/count", resource: "customers" },
  "identities.add": { method: "POST", path: "/v1/customeridentities", resource: "identities", invalidates: ["identities", "customers"] },
  "identities.list": { method: "GET", path: "/v1/customeridentities", resource: "identities" },
  "identities.getByMd5": { method: "GET", path: "/v1/customerService/getCustomerIdentityByMd5", resource: "identities" },
  "customers.statistics": { method: "GET", path: "/v1/customerStatistics", resource: "customers" },
  "customers.mergeByIdentities": { method: "POST", path: "/v1/customerService/mergeCustomerByIdentities", resource: "customers", invalidates: ["customers", "identities", "listMembers", "customerTags"] },
  "customers.mergeById": { method: "POST", path: "/v1/customerService/mergeCustomerById", resource: "customers", invalidates: ["customers", "identities", "listMembers", "customerTags"] },
  "customers.unbindMessenger": { method: "POST", path: "/v1/customers/messenger/unbinding", resource: "customers", invalidates: ["customers", "identities", "events"] },

  // §4.2 Orders (deals)
  "deals.create": { method: "POST", path: "/v1/deals", resource: "deals", invalidates: ["deals", "customers"] },
  "deals.get": { method: "GET", path: "/v1/deals/{orderNo}", resource: "deals" },
  "deals.list": { method: "GET", path: "/v1/deals", resource: "deals" },
  "deals.update": { method: "PUT", path: "/v1/deals/{orderNo}", resource: "deals", invalidates: ["deals"] },
  "deals.cancel": { method: "POST", path: "/v1/dealService/cancel", resource: "deals", invalidates: ["deals"] },
  "deals.refund": { method: "POST", path: "/v1/dealService/refund", resource: "deals", invalidates: ["deals"] },
  "deals.deleteRefund": { method: "POST", path: "/v1/dealService/deleteRefund", resource: "deals", invalidates: ["deals"] },
  "deals.delete": { method: "DELETE", path: "/v1/deals/{orderNo}", resource: "deals", invalidates: ["deals"] },
  "deals.getByOrderNo": { method: "GET", path: "/v1/dealService/getDealByOrderNo", resource: "deals" },

  // §4.3 Customer events
  "events.create": { method: "POST", path: "/v1/customerevents", resource: "events", invalidates: ["events", "customers"] },
  "events.push": { method: "POST", path: "/v1/collector/pushevent", resource: "events", invalidates: ["events", "customers"] },
  "events.batchPush": { method: "POST", path: "/v1/collector/batchPushEvents", resource: "events", invalidates: ["events", "customers"] },
  "events.get": { method: "GET", path: "/v1/customerevents/{id}", resource: "events" },
  "events.list": { method: "GET", path: "/v1/customerevents", resource: "events" },

  // §4.4 Lists
  "lists.create": { method: "POST", path: "/v1/lists", resource: "lists", invalidates: ["lists"] },
  "lists.delete": { method: "DELETE", path: "/v1/lists/{id}", resource: "lists", invalidates: ["lists", "listMembers"] },
  "lists.list": { method: "GET", path: "/v1/lists", resource: "lists" },
  "listMembers.add": { method: "POST", path: "/v1/listMembers", resource: "listMembers", invalidates: ["listMembers"] },
  "listMembers.delete": { method: "DELETE", path: "/v1/listMembers/{id}", resource: "listMembers", invalidates: ["listMembers"] },
  "listMembers.removeFromList": { method: "POST", path: "/v1/listservice/removeFromList", resource: "listMembers", invalidates: ["listMembers"] },
  "listMembers.addBatch": { method: "POST", path: "/v1/listMembersBatch", resource: "listMembers", invalidates: ["listMembers"] },
  "listMembers.list": { method: "GET", path: "/v1/listMembers", resource: "listMembers" },
  "listMembers.count": { method: "GET", path: "/v1/listservice/memberCount", resource: "listMembers" },

  // §4.5 Tags
  "tagDimensions.create": { method: "POST", path: "/v1/tagdimensions", resource: "tagDimensions", invalidates: ["tagDimensions"] },
  "tagDimensions.list": { method: "GET", path: "/v1/tagdimensions", resource: "tagDimensions" },
  "tags.create": { method: "POST", path: "/v1/tags", resource: "tags", invalidates: ["tags"] },
  "tags.update": { method: "PUT", path: "/v1/tags/{id}", resource: "tags", invalidates: ["tags", "customerTags"] },
  "tags.delete": { method: "DELETE", path: "/v1/tags/{id}", resource: "tags", invalidates: ["tags", "customerTags"] },
  "tags.list": { method: "GET", path: "/v1/tags", resource: "tags" },
  "customerTags.add": { method: "POST", path: "/v1/tagservice/addCustomerTag", resource: "customerTags", invalidates: ["customerTags"] },
  "customerTags.remove": { method: "POST", path: "/v1/tagservice/removeCustomerTag", resource: "customerTags", invalidates: ["customerTags"] },
  "customerTags.get": { method: "GET", path: "/v1/tagservice/getCustomerTags", resource: "customerTags" },
  "tags.merge": { method: "POST", path: "/v1/tags/{fromId}/mergeto/{toId}", resource: "tags", invalidates: ["tags", "customerTags"] },
  "tags.importExternal": { method: "POST", path: "/v1/externalTags", resource: "tags", invalidates: ["tags", "customerTags"] },

  // §4.6 Media data
  "media.importData": { method: "POST", path: "/v1/third_party_data/importData", resource: "media" },

  // §4.7 the current user, with its tenant (the grants, authorize and cloudinfo are the server's: below)
  "users.current": { method: "GET", path: "/v1/users/current", resource: "auth", auth: "bearer" },

  // §4.8 Shops and shop groups
  "stores.create": { method: "POST", path: "/v1/stores", resource: "stores", invalidates: ["stores"] },
  "stores.update": { method: "PUT", path: "/v1/stores/{id}", resource: "stores", invalidates: ["stores", "storeGroups"] },
  "stores.delete": { method: "DELETE", path: "/v1/stores/{id}", resource: "stores", invalidates: ["stores", "storeGroups"] },
  "storeGroups.create": { method: "POST", path: "/v1/storesGroups", resource: "storeGroups", invalidates: ["storeGroups"] },
  "storeGroups.get": { method: "GET", path: "/v1/storesGroups/{groupId}", resource: "storeGroups" },
} as const satisfies Record<string, RouteSpec>;

/** §4.7 authorization and environment lookup: the server's only. */
const authRoutes = {
  "auth.authorize": { method: "GET", path: "/oauth2/authorize", resource: "auth", base: "auth", auth: "none", redirect: true },
  "auth.exchangeCode": { method: "POST", path: "/oauth2/token", resource: "auth", base: "auth", auth: "client", bodyEncoding: "form" },
  "auth.refresh": { method: "POST", path: "/oauth2/token", resource: "auth", base: "auth", auth: "client", bodyEncoding: "form" },
  "extension.cloudinfo": { method: "GET", path: "/cloudinfo", resource: "auth", base: "extension", auth: "none", idempotent: false },
} as const satisfies Record<string, RouteSpec>;

type Specs = typeof apiRoutes & typeof authRoutes;

/** Every route with its defaults filled in (the server's view, to which `operations.ts` attaches the schemas). */
function resolveRoutes(): { [K in keyof Specs & string]: Route<K> & Specs[K] } {
  const out: Record<string, Route> = {};
  for (const [specs, browser] of [[apiRoutes, true], [authRoutes, false]] as const) {
    for (const [name, spec] of Object.entries(specs) as [string, RouteSpec][]) {
      out[name] = { name, base: "api", auth: "query", idempotent: spec.method === "GET", browser, ...spec };
    }
  }
  return out as { [K in keyof Specs & string]: Route<K> & Specs[K] };
}

// Pure: a bundle that reads only `apiRoutes` (the browser's) leaves the server's routes out.
export const routes = /* @__PURE__ */ resolveRoutes();

export type OperationName = keyof typeof routes;
/** The operations the browser may call through the proxy. */
export type BrowserOperationName = keyof typeof apiRoutes;

// ── URLs ────────────────────────────────────────────────────────────────────────────────────────

/** Input split by where it goes: path parameters, query parameters, body. */
export type ParsedInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/**
 * The URL of an operation under `baseUrl` (a platform address, or the proxy's `/api/platform`; no
 * trailing slash): the path template filled, the query appended without empty values (undefined,
 * null and "" are left out: an empty filter is no filter). The server's client and the browser's
 * build URLs here.
 */
export function operationUrl(route: { path: string }, input: ParsedInput, baseUrl: string): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = input.params?.[key];
    if (value === undefined || value === null || value === "") throw new TypeError(`missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== "") query.append(key, String(value));
  }
  const qs = query.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ""}`;
}
