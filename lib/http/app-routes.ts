import type { HttpMethod, Resource } from "@/lib/platform/routes";

/**
 * THE routes of the app's own API (`/api/...`): for every method and path, what it is without its
 * schemas. Written once, here, beside the platform's table (`lib/platform/routes.ts`), and in its
 * style: this module imports nothing at run time, so the console's bundle carries paths, policies
 * and keys but no zod. It sits in lib/http because the route wrapper (`route.ts`) reads it. Each
 * feature attaches the schemas to its routes' names in its own `*-operations.ts`
 * (`define-operations.ts`), and lib/openapi/app-operations.ts joins them (a route missing or given
 * twice is a type error) for `GET /api/openapi.json` and the browser client's types
 * (lib/api/browser-fetch.ts: `appCall`, `appQuery`); the e2e stubs read this list.
 *
 * Adding a route: one entry here, its schemas in the feature's operations module, its handler
 * (`apiRoute({ operation: xOperations[name], … })`) and the one-line `app/api/**\/route.ts`.
 */

/** What the app caches besides the platform's resources (a query key's second element). */
export type AppResource = Resource | "session" | "activity" | "dashboard" | "search" | "segments" | "duplicates" | "preferences" | "tasks" | "views" | "webhooks" | "health" | "api" | "audit" | "tenant";

/**
 * Who may call a route: `session` = the signed-in console of the `X-Open-App-Id` environment (else
 * 401 reauth_required); `public` = no session (the route authenticates its caller itself, or
 * needs no one: webhooks, the authorization flow, health).
 */
export type AppAccess = "session" | "public";

/**
 * The CSRF check (the `X-Engage-Request` header and a same-origin request): `writes` = every method
 * but GET (the default), `always` = a GET too (a costly or side-effect read), `never` = no cookie
 * is honoured (webhooks, the bearer-only session renewal) or the handler checks the origin itself.
 */
export type AppCsrf = "writes" | "always" | "never";

/**
 * Whether a request must carry the app's header (and come from the app's origin): `always`, or
 * `writes` for every method but GET, and for a GET of a session route too: the session cookie is
 * `SameSite=None`, so a cross-site page could otherwise make such a GET start work with it.
 */
export function needsAppHeader(route: { csrf: AppCsrf; access: "session" | "public" }, method: string): boolean {
  return route.csrf === "always" || (route.csrf === "writes" && (method !== "GET" || route.access === "session"));
}

/** What a route answers: JSON (the default), an HTML page, a redirect, a CSV stream, a stored file, or the platform's JSON relayed. */
export type AppAnswer = "json" | "html" | "redirect" | "csv" | "file" | "relay";

export type AppRouteSpec = {
  method: HttpMethod;
  /** The path, `{name}` for a path parameter (`{path+}`: the rest of the path, slashes included). */
  path: string;
  /** What the route's answers are about: its query key's second element. */
  resource: AppResource;
  /** Default: `session`. */
  access?: AppAccess;
  /** Default: `writes`. */
  csrf?: AppCsrf;
  /** Default: `json`. */
  answer?: AppAnswer;
  /** The resources whose cached queries a success makes stale (the platform's and the app's). */
  invalidates?: readonly AppResource[];
  /**
   * The audit log (lib/http/audit-hook.ts): `writes` (the default) records every method but GET;
   * `never` for a write that changes nothing of the tenant's (the platform's deliveries, a session
   * renewal, a recomputation).
   */
  audit?: "writes" | "never";
};

/** The routes the console calls: the browser's table (paths, keys). */
export const consoleRoutes = {
  "auth.start": { method: "GET", path: "/api/auth/start", resource: "auth", access: "public", csrf: "never", answer: "redirect" },
  "auth.session": { method: "GET", path: "/api/auth/session", resource: "session" },

  "customers.export": { method: "POST", path: "/api/export/customers", resource: "tasks", invalidates: ["tasks"] },
  "events.import": { method: "POST", path: "/api/events/import", resource: "tasks", invalidates: ["tasks"] },

  "refunds.list": { method: "GET", path: "/api/orders/refunds", resource: "deals" },
  "refunds.create": { method: "POST", path: "/api/orders/refunds", resource: "deals", invalidates: ["deals"] },
  "refunds.delete": { method: "DELETE", path: "/api/orders/refunds", resource: "deals", invalidates: ["deals"] },

  "dashboard.get": { method: "GET", path: "/api/dashboard", resource: "dashboard" },
  "dashboard.refresh": { method: "POST", path: "/api/dashboard", resource: "dashboard", audit: "never", invalidates: ["tasks"] },

  "activity.list": { method: "GET", path: "/api/activity", resource: "activity" },

  "search.customers": { method: "GET", path: "/api/search/customers", resource: "search" },
  "search.status": { method: "GET", path: "/api/search/status", resource: "search" },
  "search.tagCounts": { method: "GET", path: "/api/search/tag-counts", resource: "search" },
  "search.resync": { method: "POST", path: "/api/search/resync", resource: "search", invalidates: ["search"] },

  "duplicates.queue": { method: "GET", path: "/api/duplicates", resource: "duplicates" },
  "duplicates.counts": { method: "GET", path: "/api/duplicates/counts", resource: "duplicates" },
  "duplicates.merge": { method: "POST", path: "/api/duplicates/merge", resource: "duplicates", invalidates: ["duplicates", "customers", "identities", "customerTags", "listMembers", "search"] },
  "duplicates.dismiss": { method: "POST", path: "/api/duplicates/dismiss", resource: "duplicates", invalidates: ["duplicates"] },
  "duplicates.scan": { method: "POST", path: "/api/duplicates/scan", resource: "duplicates", invalidates: ["duplicates", "tasks"] },
  "duplicates.plan": { method: "GET", path: "/api/duplicates/bulk", resource: "duplicates" },
  "duplicates.bulk": { method: "POST", path: "/api/duplicates/bulk", resource: "duplicates", invalidates: ["duplicates", "tasks"] },
  "duplicates.history": { method: "GET", path: "/api/duplicates/history", resource: "duplicates" },

  "shops.list": { method: "GET", path: "/api/shops", resource: "stores" },
  "shops.create": { method: "POST", path: "/api/shops", resource: "stores", invalidates: ["stores"] },
  "shops.get": { method: "GET", path: "/api/shops/{id}", resource: "stores" },
  "shops.update": { method: "PUT", path: "/api/shops/{id}", resource: "stores", invalidates: ["stores", "storeGroups"] },
  "shops.delete": { method: "DELETE", path: "/api/shops/{id}", resource: "stores", invalidates: ["stores", "storeGroups"] },
  "shops.addKnown": { method: "POST", path: "/api/shops/known", resource: "stores", invalidates: ["stores"] },
  "shopGroups.list": { method: "GET", path: "/api/shop-groups", resource: "storeGroups" },
  "shopGroups.create": { method: "POST", path: "/api/shop-groups", resource: "storeGroups", invalidates: ["storeGroups"] },
  "shopGroups.get": { method: "GET", path: "/api/shop-groups/{id}", resource: "storeGroups" },

  "media.imports": { method: "GET", path: "/api/media/imports", resource: "media" },
  "media.import": { method: "POST", path: "/api/media/imports", resource: "media", invalidates: ["media"] },

  "segments.list": { method: "GET", path: "/api/segments", resource: "segments" },
  "segments.create": { method: "POST", path: "/api/segments", resource: "segments", invalidates: ["segments"] },
  "segments.get": { method: "GET", path: "/api/segments/{id}", resource: "segments" },
  "segments.update": { method: "PUT", path: "/api/segments/{id}", resource: "segments", invalidates: ["segments"] },
  "segments.delete": { method: "DELETE", path: "/api/segments/{id}", resource: "segments", invalidates: ["segments"] },
  // A count or a preview reads a definition that is being edited (a JSON body): POST, changing nothing.
  "segments.count": { method: "POST", path: "/api/segments/count", resource: "segments" },
  "segments.preview": { method: "POST", path: "/api/segments/preview", resource: "segments" },
  "segments.sync": { method: "POST", path: "/api/segments/{id}/sync", resource: "segments", invalidates: ["segments", "tasks", "lists", "listMembers"] },
  "segments.tag": { method: "POST", path: "/api/segments/{id}/tag", resource: "segments", invalidates: ["customers", "customerTags"] },
  "segments.export": { method: "GET", path: "/api/segments/{id}/export", resource: "segments", csrf: "always", answer: "csv" },

  // Background tasks (lib/tasks): a feature's own route starts one; these watch, stop and download.
  "tasks.list": { method: "GET", path: "/api/tasks", resource: "tasks" },
  "tasks.get": { method: "GET", path: "/api/tasks/{id}", resource: "tasks" },
  "tasks.cancel": { method: "POST", path: "/api/tasks/{id}/cancel", resource: "tasks", invalidates: ["tasks"] },
  "tasks.file": { method: "GET", path: "/api/tasks/{id}/file", resource: "tasks", answer: "file" },

  // Saved views of the list pages (lib/views).
  "views.list": { method: "GET", path: "/api/views", resource: "views" },
  "views.save": { method: "POST", path: "/api/views", resource: "views", invalidates: ["views"] },
  "views.delete": { method: "DELETE", path: "/api/views/{id}", resource: "views", invalidates: ["views"] },

  "preferences.get": { method: "GET", path: "/api/preferences", resource: "preferences" },
  "preferences.put": { method: "PUT", path: "/api/preferences", resource: "preferences", invalidates: ["preferences"] },

  "audit.list": { method: "GET", path: "/api/audit", resource: "audit" },
  "audit.export": { method: "GET", path: "/api/audit/export", resource: "audit", csrf: "always", answer: "csv" },
  "audit.settings": { method: "GET", path: "/api/audit/settings", resource: "audit" },
  "audit.settingsPut": { method: "PUT", path: "/api/audit/settings", resource: "audit", invalidates: ["audit"] },

  "tenant.data": { method: "GET", path: "/api/tenant/data", resource: "tenant" },
  "tenant.export": { method: "GET", path: "/api/tenant/export", resource: "tenant", csrf: "always" },
  // Its own entry is the audit log's final one (written by the route itself, after the deletion).
  "tenant.disconnect": { method: "POST", path: "/api/tenant/disconnect", resource: "tenant", audit: "never", invalidates: ["tenant", "audit", "session"] },
} as const satisfies Record<string, AppRouteSpec>;

/** The routes only the platform, the authorization flow's pages and servers call. */
const serverRoutes = {
  // The authorization flow (§5.2, §5.3; lib/auth/flow-handlers.ts checks its own origins).
  "auth.callback": { method: "GET", path: "/api/auth/callback", resource: "auth", access: "public", csrf: "never", answer: "html" },
  "auth.callbackReturn": { method: "POST", path: "/api/auth/callback", resource: "auth", access: "public", csrf: "never", answer: "html" },
  "auth.logout": { method: "POST", path: "/api/auth/logout", resource: "auth", access: "public", csrf: "never", answer: "redirect", invalidates: ["session"] },
  // Bearer-only: a cookie cannot renew anything.
  "auth.sessionRenew": { method: "POST", path: "/api/auth/session", resource: "session", access: "public", csrf: "never", audit: "never" },

  // The browser's door to the platform (lib/platform/README.md "The proxy contract"): one policy, four methods.
  "platform.get": { method: "GET", path: "/api/platform/v1/{path+}", resource: "api", answer: "relay" },
  "platform.post": { method: "POST", path: "/api/platform/v1/{path+}", resource: "api", answer: "relay" },
  "platform.put": { method: "PUT", path: "/api/platform/v1/{path+}", resource: "api", answer: "relay" },
  "platform.delete": { method: "DELETE", path: "/api/platform/v1/{path+}", resource: "api", answer: "relay" },

  "webhooks.receive": { method: "POST", path: "/api/webhooks/platform", resource: "webhooks", access: "public", csrf: "never", audit: "never" },
  "webhooks.token": { method: "GET", path: "/api/webhooks/token", resource: "webhooks", access: "public", csrf: "never" },
  "health": { method: "GET", path: "/api/health", resource: "health", access: "public", csrf: "never" },
  "openapi": { method: "GET", path: "/api/openapi.json", resource: "api", access: "public", csrf: "never" },
} as const satisfies Record<string, AppRouteSpec>;

type Specs = typeof consoleRoutes & typeof serverRoutes;

// Pure: a bundle that reads only `consoleRoutes` (the browser's) leaves the server's routes out.
export const appRoutes: Specs = /* @__PURE__ */ Object.assign({}, consoleRoutes, serverRoutes);

export type AppRouteName = keyof Specs;
/** The routes the browser calls (`appCall`, `appQuery`, `appRouteUrl`). */
export type ConsoleRouteName = keyof typeof consoleRoutes;

/** A route with its defaults filled in. */
export type AppRoute = Required<Omit<AppRouteSpec, "invalidates">> & { name: string; invalidates: readonly AppResource[] };

export function appRoute(name: AppRouteName): AppRoute {
  const spec: AppRouteSpec = appRoutes[name];
  return { name, access: "session", csrf: "writes", answer: "json", audit: "writes", invalidates: [], ...spec };
}

/** Input split by where it goes, as in the platform's table. */
export type AppInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/**
 * The URL of a console route: the path filled, the query appended without empty values
 * (undefined, null, "", false); an array is the parameter repeated.
 */
export function appRouteUrl(name: ConsoleRouteName, input: AppInput = {}): string {
  const path = consoleRoutes[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = input.params?.[key];
    if (value === undefined || value === null || value === "") throw new TypeError(`missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== null && one !== "" && one !== false) query.append(key, String(one));
    }
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A path's parameters by its template (`/api/shops/{id}`; `{path+}` takes the rest), or undefined when it does not match. */
export function pathParamsOf(template: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)(\+?)\}/g, (_, name: string, rest: string) => {
    names.push(name);
    return rest ? "(.+)" : "([^/]+)";
  });
  const match = new RegExp(`^${pattern}/?$`).exec(pathname);
  if (!match) return undefined;
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  } catch {
    return undefined;
  }
}

/** The route of a method and path (a path without parameters wins over a template), or undefined. */
export function matchAppRoute(method: string, pathname: string): { name: AppRouteName; params: Record<string, string> } | undefined {
  let found: { name: AppRouteName; params: Record<string, string> } | undefined;
  for (const [name, route] of Object.entries(appRoutes) as [AppRouteName, AppRouteSpec][]) {
    if (route.method !== method) continue;
    const params = pathParamsOf(route.path, pathname);
    if (params && (!found || Object.keys(params).length < Object.keys(found.params).length)) found = { name, params };
  }
  return found;
}

/**
 * The console's query keys of the app's routes (TanStack Query), one style, the same for the
 * server's prefetch and the browser: `["app", resource, openAppId, name, input]`. The environment is
 * always in the key (one tab may hold consoles of two installations); `resource(r)` is every
 * environment's queries of a resource, which is what invalidation needs.
 */
export const appKeys = {
  resource: (resource: AppResource) => ["app", resource] as const,
  call: <N extends ConsoleRouteName>(name: N, openAppId: string | undefined, input: AppInput = {}) =>
    ["app", consoleRoutes[name].resource, openAppId ?? "", name, input] as const,
};

/** The query keys a success of `name` makes stale: the app's and the platform proxy's of each resource it invalidates. */
export function appInvalidatedKeys(name: ConsoleRouteName): ReadonlyArray<readonly [string, AppResource]> {
  const route: AppRouteSpec = consoleRoutes[name];
  return (route.invalidates ?? []).flatMap((resource) => [appKeys.resource(resource), ["platform", resource] as const]);
}
