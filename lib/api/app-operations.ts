import "server-only";
import { z } from "zod";
import type { ConsoleSessionInfo } from "@/lib/api/console-session";
import type { DashboardAnswer } from "@/lib/dashboard/dashboard-data";
import { MAX_BATCHES_PER_REQUEST, type EventImportAnswer } from "@/lib/events/import-api";
import { MAX_IMPORT_FILES, OSS_PATH } from "@/lib/media/import-form";
import { MEDIA_EVENT_TYPES, type MediaImportAnswer, type MediaImportListAnswer } from "@/lib/media/media-api";
import { MAX_REFUND_ORDERS, type RefundRecord, type RefundsAnswer } from "@/lib/orders/refund-record";
import { operations } from "@/lib/platform/operations";
import { isPlatformId } from "@/lib/platform/ids";
import { boolParam, intParam } from "@/lib/platform/schema-helpers";
import { checkPreference, PREFERENCE_KEYS, type PreferenceKey, type Preferences } from "@/lib/preferences/preference-rules";
import type { IndexStatus, SearchAnswer } from "@/lib/search/types";
import { SHOP_SORTS, SHOP_STATES, type AddKnownAnswer, type GroupCreateAnswer, type GroupListAnswer, type GroupReadAnswer, type ShopAnswer, type ShopListAnswer } from "@/lib/shops/shops-api";
import { MAX_ACTIVITY_PAGE } from "@/lib/store/webhook-inbox";
import { appRoute, appRoutes, type AppRoute, type AppRouteName } from "./app-routes";

/**
 * The app's own API with its schemas: the routes of `app-routes.ts` (method, path, access, CSRF,
 * resource, invalidates), each with a summary and zod 4 schemas for `params`, `query`, `body` and
 * `output`, checked by the compiler against the route table (a missing or extra name is a type
 * error). The route wrapper parses a request's input with them (`apiRoute({ operation })`: a
 * schema failure is `422 invalid_input` with `fieldErrors`, mapped there once), and
 * `GET /api/openapi.json` is generated from them (`app-openapi.ts`). The browser reads
 * `app-routes.ts` only, and these types (`AppInputOf`, `AppOutputOf`) as types.
 *
 * Query schemas take what a URL carries (a parameter given once is a string, repeated an array;
 * `openAppId` names the environment and is taken out before) and typed values alike.
 */

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type AppSchemas = {
  summary: string;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  /** The largest body the route reads, when it is smaller than the app's 1 MiB. */
  bodyLimit?: number;
  /** The answer (JSON routes); a relayed, HTML, redirect or CSV answer is described by its route. */
  output?: z.ZodType;
  /** The success statuses, when not 200 alone (201 created, 202 accepted; a repeated request's 200). */
  statuses?: readonly number[];
};

/** The JSON answer of a route: its schema describes the wire (OpenAPI), `T` is the feature's own contract type. */
const answer = <T>(schema: z.ZodType) => schema as unknown as z.ZodType<T>;

// ── shared pieces ───────────────────────────────────────────────────────────────────────────────

const idParams = z.strictObject({ id: z.string().refine(isPlatformId, "must be an id (digits)").meta({ description: "64-bit id (decimal digits)" }) });
const int = z.number().int();
const nullableText = z.string().nullable();
const orderNoText = z.string().trim().min(1, "must be 1 to 255 characters").max(255, "must be 1 to 255 characters");
/** A query parameter that may be repeated: one value or several. */
const repeated = <T extends z.ZodType>(item: T) => z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));

const registeredShop = z.object({
  id: z.string(),
  sid: nullableText,
  businessName: nullableText,
  branchName: nullableText,
  shopName: nullableText,
  shopStatus: nullableText,
  refuseReason: nullableText,
  shopInfoAll: nullableText,
  source: z.enum(["created", "updated", "group", "manual"]),
  seenAt: int.nullable(),
  updatedAt: int,
});
const rememberedGroup = z.object({
  id: z.string(),
  name: nullableText,
  remark: nullableText,
  origin: z.enum(["created", "opened"]),
  createdByName: nullableText,
  shopCount: int.nullable(),
  createdAt: int,
  readAt: int.nullable(),
});
const namedShopId = z.object({ id: z.string(), name: nullableText });
const mediaFile = z.object({ file: z.string(), eventType: z.enum(MEDIA_EVENT_TYPES).optional() });
const mediaImport = z.object({ id: z.string(), startedBy: z.string(), startedByName: nullableText, startedAt: int, files: z.array(mediaFile), taskIds: z.array(z.string()) });
const searchHit = z.object({ id: z.string(), displayName: nullableText, name: nullableText, nickName: nullableText, email: nullableText, mobile: nullableText });
const indexStatus = z.object({
  enabled: z.boolean(),
  phase: z.enum(["none", "backfill", "ready"]),
  indexed: int,
  total: int.nullable(),
  secondsLeft: z.number().nullable(),
  lastChangeAt: int.nullable(),
  syncedAt: int.nullable(),
  error: nullableText,
});
const refundRecord = z.object({
  id: z.string(),
  orderNo: z.string(),
  status: z.enum(["sending", "recorded", "deleted"]),
  refundState: z.string(),
  refundTotal: z.string().optional(),
  reason: z.string().optional(),
  lineIds: z.array(z.string()),
  dateRefund: z.string().optional(),
  recordedBy: z.string().optional(),
  recordedAt: int,
  deletedBy: z.string().optional(),
  deletedAt: int.optional(),
});
const preferences = z.object({ attrLabels: z.record(z.string(), z.string()), customerColumns: z.array(z.string()).nullable() });
const figure = z.looseObject({ ok: z.boolean(), code: z.string().optional(), message: z.string().optional() }).meta({ description: "a computed figure (`ok: true` and its values) or why it could not be (`ok: false`, code, message)" });

/**
 * §4.8 `shopInfoAll` (the object, or its JSON text), checked with the platform's own schema; a
 * problem inside it is named by its field (`shopInfoAll.business.base_info.sid`), where the form puts it.
 */
const platformShopBody = operations["stores.create"].body!;

/** A dialog's idempotency key: the same key twice is one refund, shop or group. */
const requestKey = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "8 to 64 of A-Z a-z 0-9 _ -");

/** `keyed`: a creation, which may carry the dialog's `requestKey` beside the shop. */
function shopBody(keyed: boolean) {
  return z
    .unknown()
    .transform((value, ctx): { shopInfoAll: string; requestKey?: string } => {
      let rest = value;
      let key: string | undefined;
      if (keyed && value && typeof value === "object" && !Array.isArray(value) && "requestKey" in value) {
        const { requestKey: given, ...others } = value as Record<string, unknown>;
        const checkedKey = requestKey.safeParse(given);
        if (!checkedKey.success) {
          ctx.addIssue({ code: "custom", path: ["requestKey"], message: checkedKey.error.issues[0]!.message });
          return z.NEVER;
        }
        key = checkedKey.data;
        rest = others;
      }
      const checked = platformShopBody.safeParse(rest);
      if (checked.success) return { ...(checked.data as { shopInfoAll: string }), ...(key ? { requestKey: key } : {}) };
      for (const issue of checked.error.issues) {
        const inner = /^(business\.base_info\.[\w.]+): (.*)$/.exec(issue.message);
        if (inner) ctx.addIssue({ code: "custom", path: ["shopInfoAll", ...inner[1]!.split(".")], message: inner[2]! });
        else ctx.addIssue({ ...issue, path: issue.path } as never);
      }
      return z.NEVER;
    })
    .meta({
      type: "object",
      required: ["shopInfoAll"],
      properties: {
        shopInfoAll: { description: "the §4.8 shop, `{business: {base_info}}`, as an object or its JSON text", type: ["object", "string"] },
        ...(keyed ? { requestKey: { description: "the dialog's idempotency key: the same key twice is one shop", type: "string", pattern: "^[A-Za-z0-9_-]{8,64}$" } } : {}),
      },
    });
}
const shopWrite = shopBody(false);
const shopCreate = shopBody(true);

/** `{key, value}`: one known preference and its checked value (preference-rules.ts). */
const preferenceWrite = z
  .strictObject({ key: z.enum(Object.keys(PREFERENCE_KEYS) as [PreferenceKey, ...PreferenceKey[]]), value: z.unknown() })
  .transform((body, ctx) => {
    const checked = checkPreference(body.key, body.value);
    if (checked.ok) return { key: body.key, value: checked.value };
    for (const problem of checked.problems) ctx.addIssue({ code: "custom", path: problem.field.split("."), message: problem.message });
    return z.NEVER;
  });

// ── the operations ──────────────────────────────────────────────────────────────────────────────

const schemas = {
  "auth.callback": {
    summary: "The registered authorization callback (§5.2, §5.3): the install entry or the authorization return; answers an HTML page",
    query: z.looseObject({ code: z.string().optional(), timestamp: z.string().optional(), hmac: z.string().optional(), state: z.string().optional(), redirectUrl: z.string().optional(), getOpenAppIdToken: z.string().optional() }),
  },
  "auth.callbackReturn": { summary: "The return page's same-origin post: the code is exchanged only here, with the browser's proof" },
  "auth.start": {
    summary: "Starts authorization of an environment (§5.2.9); without openAppId, the home page's chooser",
    query: z.looseObject({ openAppId: z.string().optional(), returnTo: z.string().optional() }),
  },
  "auth.logout": { summary: "Signs out (revokes the sign-in; everywhere=1: every sign-in of the user)", query: z.looseObject({ everywhere: z.string().optional() }) },
  "auth.session": {
    summary: "The console's session (ids and names, no token) and whether the installation needs re-authorization",
    output: answer<ConsoleSessionInfo>(z.object({ session: z.looseObject({ openAppId: z.string(), tenantId: z.string(), userId: z.string() }), installation: z.object({ status: z.enum(["active", "reauth_required", "missing"]) }) })),
  },
  "auth.sessionRenew": {
    summary: "Renews the tab's fallback session token (Authorization: Bearer), up to the sign-in's end",
    output: answer<{ token: string; expiresAt: number }>(z.looseObject({ token: z.string(), expiresAt: int })),
  },

  // The proxy matches and checks its input against the platform's table itself (lib/platform/proxy.ts).
  "platform.get": { summary: "A read of the platform's resource API through the proxy (only the operations of its table, lib/platform/README.md)" },
  "platform.post": { summary: "A write of the platform's resource API through the proxy" },
  "platform.put": { summary: "A replacement through the proxy" },
  "platform.delete": { summary: "A deletion through the proxy" },

  "customers.export": {
    summary: "The customers list's current filter as a CSV file (the list's URL state; unknown values are left out as on the page)",
    query: z.record(z.string(), z.unknown()) as unknown as AnyObject,
  },
  "events.import": {
    summary: "Up to 10 batchPushEvents batches (§4.3) sent one after another; one result per batch",
    body: z.strictObject({ batches: z.array(z.unknown()).min(1, "at least one batch").max(MAX_BATCHES_PER_REQUEST, `at most ${MAX_BATCHES_PER_REQUEST} batches per request`) }),
    output: answer<EventImportAnswer>(z.object({ results: z.array(z.looseObject({ status: z.enum(["stored", "failed", "not_sent"]), httpStatus: int.optional() })) })),
  },

  "refunds.list": {
    summary: "The refunds this console recorded for 1 to 100 order numbers, newest first",
    query: z.strictObject({ orderNo: repeated(orderNoText).pipe(z.array(z.string()).min(1, "is required").max(MAX_REFUND_ORDERS, `at most ${MAX_REFUND_ORDERS} order numbers`)) }),
    output: answer<RefundsAnswer>(z.object({ refunds: z.record(z.string(), z.array(refundRecord)) })),
  },
  "refunds.create": {
    summary: "§4.2 dealService/refund with the installation's token, recorded with the platform's answer; the same requestKey twice is one refund (200, repeated)",
    statuses: [200, 201],
    body: z.strictObject({
      requestKey,
      refund: z.looseObject({ orderNo: orderNoText }).meta({ description: "the §4.2 refund body" }),
    }),
    output: answer<{ refund: RefundRecord; repeated?: boolean }>(z.object({ refund: refundRecord, repeated: z.boolean().optional() })),
  },
  "refunds.delete": {
    summary: "§4.2 dealService/deleteRefund; the order's recorded refunds are marked deleted",
    query: z.strictObject({ orderNo: orderNoText }),
    output: answer<{ refund: unknown; markedDeleted: number }>(z.object({ refund: z.unknown(), markedDeleted: int })),
  },

  "dashboard.get": { summary: "The overview's figures of the tenant (cached 2 minutes)", output: answer<DashboardAnswer>(z.object({ data: z.looseObject({ asOf: z.string(), calls: int, customers: z.record(z.string(), figure), events: figure, orders: figure }), cached: z.boolean() })) },
  "dashboard.refresh": { summary: "The overview's figures computed again (a refresh within 10 s returns the last)", output: answer<DashboardAnswer>(z.object({ data: z.looseObject({ asOf: z.string() }), cached: z.boolean() })) },

  "activity.list": {
    summary: "What webhooks said changed for the session's tenant since the cursor, oldest first, with the query keys to invalidate",
    query: z.strictObject({
      after: z.string().regex(/^\d{1,15}$/, "must be an activity id (digits)").optional(),
      limit: intParam(1, MAX_ACTIVITY_PAGE).optional(),
    }),
    output: answer<{ entries: Array<{ id: string; kind: string; resource?: string; resourceId?: string; action?: string }>; cursor: string; staleQueryKeys: Array<readonly [string, ...string[]]> }>(
      z.object({ entries: z.array(z.looseObject({ id: z.string(), kind: z.string() })), cursor: z.string(), staleQueryKeys: z.array(z.array(z.string())) }),
    ),
  },

  "search.customers": {
    summary: "The session tenant's customers from the index (ids, names, contacts) with the index's status; ?ids= looks names up instead",
    query: z.strictObject({
      q: z.string().max(200).optional(),
      tag: z.string().min(1).max(64).optional(),
      stage: z.string().max(128).optional(),
      stageEmpty: boolParam.optional(),
      source: z.string().max(128).optional(),
      gender: z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.enum(["0", "1", "2"])).transform(Number).optional(),
      hasMobile: boolParam.optional(),
      hasEmail: boolParam.optional(),
      limit: intParam(1, 200).optional(),
      offset: intParam(0, 9_999_999).optional(),
      ids: z.string().regex(/^\d{1,20}(,\d{1,20}){0,199}$/, "must be up to 200 comma-separated ids").optional(),
    }),
    // A look-up by ids answers `hits` alone.
    output: answer<SearchAnswer>(z.object({ hits: z.array(searchHit), hasMore: z.boolean().optional(), status: indexStatus.optional() })),
  },
  "search.status": { summary: "How far the tenant's index is", output: answer<IndexStatus>(indexStatus) },
  "search.resync": { summary: "The index emptied and read again from the platform", statuses: [202], output: answer<IndexStatus>(indexStatus) },

  "shops.list": {
    summary: "The tenant's shop register (the platform lists no shops, §4.8)",
    query: z.object({ q: z.string().max(200).optional(), sort: z.enum(SHOP_SORTS).optional(), order: z.enum(["asc", "desc"]).optional(), state: z.enum(SHOP_STATES).optional() }),
    output: answer<ShopListAnswer>(z.object({ shops: z.array(registeredShop), total: int })),
  },
  "shops.create": { summary: "Records, creates on the platform (§4.8), then registers a shop; the same requestKey twice is one shop", body: shopCreate, statuses: [201], output: answer<ShopAnswer>(z.object({ shop: registeredShop })) },
  "shops.get": { summary: "The register's shop (the platform has no read by id)", params: idParams, output: answer<ShopAnswer>(z.object({ shop: registeredShop })) },
  "shops.update": { summary: "Replaces a shop on the platform (§4.8), then registers it", params: idParams, body: shopWrite, output: answer<ShopAnswer>(z.object({ shop: registeredShop })) },
  "shops.delete": { summary: "Deletes a shop on the platform (§4.8, §7.5), then forgets it", params: idParams, output: answer<{ deleted: string }>(z.object({ deleted: z.string() })) },
  "shops.addKnown": {
    summary: "A shop id staff add by hand (read later through a group); 200 when it was known already",
    statuses: [200, 201],
    body: z.strictObject({ id: z.string().trim().refine(isPlatformId, "must be a shop id (digits)") }),
    output: answer<AddKnownAnswer>(z.object({ shop: registeredShop, added: z.boolean() })),
  },
  "shopGroups.list": { summary: "The groups the app created or opened", output: answer<GroupListAnswer>(z.object({ groups: z.array(rememberedGroup) })) },
  "shopGroups.create": {
    summary: "Creates a shop group on the platform (§4.8) and names the ids it answered",
    statuses: [201],
    body: z.strictObject({
      requestKey: requestKey.optional(),
      name: z.string().trim().min(1, "is required").max(255, "at most 255 characters"),
      remark: z.string().trim().min(1, "is required").max(1000, "at most 1000 characters"),
      shopIds: z.array(z.string().trim().refine(isPlatformId, "must be shop ids (digits)")).min(1, "pick at least one shop").max(500, "at most 500 shops"),
    }),
    output: answer<GroupCreateAnswer>(z.object({ group: rememberedGroup, success: z.array(namedShopId), failed: z.array(namedShopId) })),
  },
  "shopGroups.get": { summary: "A group's shops read from the platform (§4.8), which refresh the register", params: idParams, output: answer<GroupReadAnswer>(z.object({ group: rememberedGroup, shops: z.array(registeredShop) })) },

  "media.imports": { summary: "The media imports started through the app, latest first (§4.6 has no task status)", output: answer<MediaImportListAnswer>(z.object({ imports: z.array(mediaImport) })) },
  "media.import": {
    summary: "Sends a fileList to the platform's import (§4.6) and keeps the task ids it returns",
    statuses: [201],
    body: z.strictObject({
      fileList: z
        .array(z.strictObject({ file: z.string().trim().regex(OSS_PATH, "must be an object-storage file path oss://<bucket>/<object>"), eventType: z.enum(MEDIA_EVENT_TYPES).optional() }))
        .min(1, "at least one file")
        .max(MAX_IMPORT_FILES, `at most ${MAX_IMPORT_FILES} files`),
    }),
    output: answer<MediaImportAnswer>(z.object({ import: mediaImport })),
  },

  "preferences.get": { summary: "The console's preferences: the tenant's attribute labels, the user's customer columns", output: answer<Preferences>(preferences) },
  "preferences.put": {
    summary: "Saves one preference, checked; answers the whole set",
    body: preferenceWrite,
    // 100 labels of 64 characters fit many times.
    bodyLimit: 32_768,
    output: answer<Preferences>(preferences),
  },

  "webhooks.receive": { summary: "A platform webhook delivery (§5.5, §6), authenticated in the configured mode and stored once", output: answer<{ received: boolean; duplicate?: boolean }>(z.object({ received: z.boolean(), duplicate: z.boolean().optional() })) },
  "webhooks.token": { summary: "The app's token endpoint of the oauth2 webhook mode (appid, secret, grant_type=client_credentials)", output: answer<{ access_token: string; token_type: string; expires_in: number }>(z.object({ access_token: z.string(), token_type: z.string(), expires_in: int })) },
  "health": { summary: "Liveness", output: answer<{ status: string; service: string }>(z.object({ status: z.string(), service: z.string() })) },
  "openapi": { summary: "This document: the app's API as OpenAPI 3.1" },
} satisfies Record<AppRouteName, AppSchemas>;

/** Every route of the table with its schemas. */
export type AppOperation<N extends AppRouteName = AppRouteName> = AppRoute & AppSchemas & { name: N };

type Schemas = typeof schemas;

export const appOperations = Object.fromEntries(
  (Object.keys(appRoutes) as AppRouteName[]).map((name) => [name, { ...appRoute(name), ...schemas[name], name }]),
) as { [N in AppRouteName]: AppOperation<N> & Schemas[N] };

export const appOperationList: AppOperation[] = Object.values(appOperations);

type Part<N extends AppRouteName, K extends "params" | "query" | "body", IO extends "in" | "out"> = Schemas[N] extends { [P in K]: infer S extends z.ZodType }
  ? { [P in K]: IO extends "in" ? z.input<S> : z.output<S> }
  : { [P in K]?: never };

/** What the browser sends to a route: `{ params?, query?, body? }` as its schemas take them. */
export type AppInputOf<N extends AppRouteName> = Part<N, "params", "in"> & Part<N, "query", "in"> & Part<N, "body", "in">;
/** What a handler gets: the parsed input. */
export type AppParsedOf<N extends AppRouteName> = Part<N, "params", "out"> & Part<N, "query", "out"> & Part<N, "body", "out">;
/** A route's JSON answer. */
export type AppOutputOf<N extends AppRouteName> = Schemas[N] extends { output: infer S extends z.ZodType } ? z.output<S> : unknown;
