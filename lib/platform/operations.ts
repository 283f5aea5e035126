import { z } from "zod";
import { LIMITS } from "./limits";
import {
  customer,
  customerEvent,
  customerStatistics,
  customerWrite,
  eventFields,
  identity,
  identityFields,
  identityInput,
  list,
  listMember,
  listMemberInput,
  md5Identity,
  order,
  orderFields,
  orderLineInput,
  refund,
  shop,
  shopGroup,
  shopInfoAll,
  tag,
  tagDimension,
} from "./resources";
import { routes, type OperationName, type Route } from "./routes";
import { boolParam, decimal, id, idListParam, intParam, outId, outInt, outText, sord, text, textOrNumber, utcBodyTime, utcFilter, utcFilterZ } from "./schema-helpers";

export type { HttpMethod, OperationAuth, OperationBase, OperationName, Resource } from "./routes";

/**
 * The platform's operations with their schemas: the routes of `routes.ts` (method, path, base,
 * auth, resource, idempotent, browser, invalidates), each with a summary citing the spec and zod 4
 * schemas for `params`, `query`, `body` and `output`. The typed client (`client.ts`), the proxy's
 * allowlist (`proxy.ts`, `router.ts`) and the sandbox's /openapi.json read it; the browser reads
 * `routes.ts` only.
 *
 * Input is `{ params, query, body }`: path parameters, query parameters and the request body.
 * Query schemas accept strings (as they arrive in a URL) and typed values alike. To render JSON
 * Schema use `z.toJSONSchema(schema, { io: "input" })` for request parts and `{ io: "output" }` or
 * `"input"` for responses (ids render as `integer`/`int64`).
 */

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** What `operations.ts` adds to a route. */
export type Schemas = {
  /** What it does, citing the spec. */
  summary: string;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  output: z.ZodType;
};

export type OperationSpec = Route & Schemas;

export type Operation<Name extends string = string, S extends OperationSpec = OperationSpec> = S & { name: Name };

// ── shared pieces ───────────────────────────────────────────────────────────────────────────────

const idParams = z.strictObject({ id });
const orderNoParams = z.strictObject({ orderNo: text(128).min(1, "is required") });
/** §4: paging parameters; `sord` is `asc` (default) or `desc`. */
const paging = { rows: intParam(1, 10_000).optional(), page: intParam(1).optional(), sidx: text(64).optional(), sord: sord.optional() };
const notShown = z.unknown().meta({ description: "response body not shown in the spec" });
/** A `{ page, records, total, rows }` page (§4.4, §4.5). */
const pageOf = <T extends z.ZodType>(row: T) =>
  z.looseObject({ page: outInt, records: outInt, total: outInt, rows: z.array(row) });

/** §4.1 customers/count: "the body format is not shown"; a number or `{count}` is read as the count. */
const countOutput = z.preprocess((value) => {
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value);
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    for (const key of ["count", "total", "records", "data"]) {
      if (typeof o[key] === "number") return o[key];
      if (typeof o[key] === "bigint") return Number(o[key]);
    }
  }
  return value;
}, z.number().int().min(0));

const customerFilters = {
  stage: text().optional(),
  source: text().optional(),
  mobile: text().optional(),
  gender: intParam(0, 2).optional(),
  idList: idListParam.optional(),
  dateCreatedFrom: utcFilter.optional(),
  dateCreatedTo: utcFilter.optional(),
  lastUpdatedFrom: utcFilter.optional(),
  lastUpdatedTo: utcFilter.optional(),
  select: text().optional(),
};

const identityRef = z.strictObject(identityFields);
const mergeResult = z.looseObject({ data: z.looseObject({ customerId: id }) });
const success = z.looseObject({ success: z.boolean() });
const tagName = text(LIMITS.tagName);
const tagDimensionName = text(LIMITS.tagDimension);
const eventByIdentity = z.looseObject({ ...identityFields, ...eventFields });
const storeResult = z.looseObject({ shop: shop.nullish(), error: z.looseObject({ code: z.unknown().optional(), message: z.string().nullish() }).nullish() });
/** §4.7 token answers; without `expires_in` the token lasts 7200 s (§8). */
const tokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().nullish(),
  expires_in: z.preprocess(
    (value) => (value === undefined || value === null ? LIMITS.accessTokenSeconds : typeof value === "bigint" || typeof value === "string" ? Number(value) : value),
    z.number().int().positive(),
  ),
  refresh_token: z.string().min(1).nullish(),
});
/**
 * §4.7: "a user object containing tenantId", read at the top level or under `data` or `user`. The
 * real v1 API answers `{email, name, tname, tid, loginName}` with `tid` a string: `tid` is then the
 * tenant id (its other fields are kept as they are).
 */
const currentUser = z.preprocess((value) => {
  const o = value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  const user = ([o?.data, o?.user, o].find((v) => v && typeof v === "object" && ("tenantId" in v || "tid" in v)) ?? value) as Record<string, unknown>;
  return user && typeof user === "object" && !("tenantId" in user) && "tid" in user ? { ...user, tenantId: user.tid } : user;
}, z.looseObject({ tenantId: id }));

/** Every route of `routes.ts` and only those (the compiler checks both). */
const schemas = {
  // §4.1 Customers and identities
  "customers.createWithIdentities": {
    summary: "Create or update a customer with identities; merges by bound identity, then email/mobile (§4.1)",
    query: z.strictObject({ nullAble: boolParam.optional(), mergeByEmail: boolParam.optional(), mergeByMobile: boolParam.optional() }),
    body: z.strictObject({ customer: customerWrite, customerIdentities: z.array(identityInput) }),
    output: customer,
  },
  "customers.upsert": {
    summary: "Create a customer, or update the one found by mobile/email; 201 new, 200 existing (§4.1)",
    body: customerWrite.extend({ createMethod: text().nullish() }),
    output: customer,
  },
  "customers.update": {
    summary: "Update a customer; returns the customer as it was before the change (§4.1)",
    params: idParams,
    query: z.strictObject({ forceUpdate: boolParam.optional(), nullAble: boolParam.optional() }),
    body: customerWrite,
    output: customer,
  },
  "customers.delete": { summary: "Delete a customer; HTTP 204 (§4.1)", params: idParams, output: notShown },
  "customers.get": { summary: "Read a customer (§4.1)", params: idParams, output: customer },
  "customers.list": {
    summary: "Query customers with filters and paging; rows 20, page 1, sidx id, sord asc by default (§4.1, §8)",
    query: z.strictObject({
      ...customerFilters,
      email: text().optional(),
      hasMobile: boolParam.optional(),
      hasEmail: boolParam.optional(),
      identityType: text(LIMITS.identityType).optional(),
      identityValue: text(LIMITS.identityValue).optional(),
      idFrom: id.optional(),
      idTo: id.optional(),
      ...paging,
    }),
    output: z.looseObject({ rows: z.array(customer) }),
  },
  "customers.count": { summary: "Count customers matching the filters (§4.1)", query: z.strictObject(customerFilters), output: countOutput },
  "identities.add": { summary: "Add an identity to a customer (§4.1, §8 lengths)", body: identityInput.extend({ customerId: id }), output: identity },
  "identities.list": {
    summary: "Identities of customers, or customer ids of an identity (§4.1)",
    query: z.strictObject({ customerIds: idListParam.optional(), identityType: text(LIMITS.identityType).optional(), identityValue: text(LIMITS.identityValue).optional() }),
    output: z.array(identity),
  },
  "identities.getByMd5": {
    summary: "Find an MD5 identity; not found is error 409200 (§4.1, §2.2)",
    query: z.strictObject({ md5type: z.enum(["common", "marketplace"]), md5value: text().min(1, "is required") }),
    output: md5Identity,
  },
  "customers.statistics": {
    summary: "Statistics records of customers; customerId or customerIds required (§4.1, §2.7)",
    query: z
      .strictObject({ customerId: id.optional(), customerIds: idListParam.optional() })
      .refine((q) => q.customerId !== undefined || q.customerIds !== undefined, { message: "customerId or customerIds is required", path: ["customerId"] }),
    output: z.looseObject({
      items: z.array(customerStatistics),
      meta: z.looseObject({ records: outInt, total: outInt, hasNext: z.boolean().nullish() }).nullish(),
    }),
  },
  "customers.mergeByIdentities": {
    summary: "Merge the customer of `from` into the customer of `to`; the source is deleted (§4.1)",
    body: z.strictObject({ from: identityRef, to: identityRef }),
    output: mergeResult,
  },
  "customers.mergeById": { summary: "Merge customer fromId into toId; fromId is deleted (§4.1)", query: z.strictObject({ fromId: id, toId: id }), output: mergeResult },
  "customers.unbindMessenger": {
    summary: "Move a union id and its open ids to a new customer; unionid wins over openid (§4.1, §6)",
    body: z
      .strictObject({ openid: text().nullish(), unionid: text().nullish() })
      .refine((b) => Boolean(b.openid || b.unionid), { message: "openid or unionid is required", path: ["openid"] }),
    output: z.looseObject({ customerId: id, identities: z.array(z.looseObject({ type: z.string().nullish(), value: z.string().nullish() })).nullish() }),
  },

  // §4.2 Orders (deals)
  "deals.create": {
    summary: "Create an order with lines; an existing orderNo is replaced (§4.2)",
    body: z
      .looseObject({ ...orderFields, lines: z.array(orderLineInput).optional(), customerIdentities: z.array(identityInput).optional() })
      .refine((b) => b.customerId !== undefined || (b.customerIdentities?.length ?? 0) > 0, {
        message: "customerId or customerIdentities is required",
        path: ["customerId"],
      }),
    output: order,
  },
  "deals.get": { summary: "Read an order with its lines; last month only (§4.2, §2.4)", params: orderNoParams, output: order },
  "deals.list": {
    summary: "List orders of the last month; sidx dateOrder by default (§4.2)",
    query: z.strictObject({ customerId: id.optional(), ...paging }),
    output: z.looseObject({ page: outInt, records: outInt, total: outInt, rows: z.array(order) }),
  },
  "deals.update": {
    summary: "Change order fields; returns the full order (§4.2)",
    params: orderNoParams,
    body: z.looseObject({
      ...orderFields,
      orderNo: orderFields.orderNo.optional(),
      amountPaid: decimal.optional(),
      dateOrder: utcBodyTime.optional(),
      lines: z.array(orderLineInput).optional(),
    }),
    output: order,
  },
  "deals.cancel": {
    summary: "Cancel an order: state 已取消; cancelDate defaults to its last update (§4.2, §3)",
    body: z.strictObject({ orderNo: text().min(1, "is required"), cancelDate: utcBodyTime.optional() }),
    output: order,
  },
  "deals.refund": {
    summary: "Refund an order fully (完全退单) or partly (部分退单) (§4.2, §3)",
    body: z.strictObject({
      orderNo: text().min(1, "is required"),
      refundLines: z.array(z.looseObject({ lineId: text().min(1, "is required") })).optional(),
      refundTotal: decimal.optional(),
      refundDate: utcBodyTime.optional(),
      state: z.enum(["完全退单", "部分退单"], { error: "must be 完全退单 (full) or 部分退单 (partial)" }),
      reason: text().optional(),
    }),
    output: refund,
  },
  "deals.deleteRefund": {
    summary: "Remove the refund of an order; returns it with empty refundLines (§4.2, §3)",
    body: z.strictObject({ orderNo: text().min(1, "is required") }),
    output: refund,
  },
  "deals.delete": { summary: "Delete an order (§4.2)", params: orderNoParams, output: notShown },
  "deals.getByOrderNo": {
    summary: "Order with state, customerIdStr and full lines incl. custom line fields (§4.2)",
    query: z.strictObject({ orderNo: text().min(1, "is required") }),
    output: order,
  },

  // §4.3 Customer events
  "events.create": {
    summary: "Record an event for a customer id; externalId dedupes (§4.3, §2.3)",
    body: z.looseObject({ customerId: id, ...eventFields }),
    output: customerEvent,
  },
  "events.push": { summary: "Collect an event by customer identity (§4.3)", body: eventByIdentity, output: success },
  "events.batchPush": {
    summary: "Collect up to 100 events; commonProps override each event's own (§4.3, §8)",
    body: z.strictObject({
      events: z.array(eventByIdentity).min(1, "at least one event").max(LIMITS.eventsPerBatch, `at most ${LIMITS.eventsPerBatch} events per request`),
      commonProps: z.record(z.string(), z.unknown()).optional(),
    }),
    output: success,
  },
  "events.get": { summary: "Read an event of the last month (§4.3)", params: idParams, output: customerEvent },
  "events.list": {
    summary: "Query events of the last month; max 20 by default, at most 1000 (§4.3, §8)",
    query: z.strictObject({
      customerId: id.optional(),
      event: text().optional(),
      idFrom: id.optional(),
      idTo: id.optional(),
      lastUpdatedFrom: utcFilterZ.optional(),
      lastUpdatedTo: utcFilterZ.optional(),
      max: intParam(1, LIMITS.eventQueryMax).optional(),
      sidx: text(64).optional(),
      sord: sord.optional(),
    }),
    output: z.array(customerEvent),
  },

  // §4.4 Lists
  "lists.create": {
    summary: "Create a static list; names are not unique (§4.4, §8: name ≤ 255)",
    body: z.strictObject({ name: text(LIMITS.listName).min(1, "is required") }),
    output: list,
  },
  "lists.delete": { summary: "Delete a list; its customers are kept (§4.4)", params: idParams, output: notShown },
  "lists.list": { summary: "Page through lists; sidx id by default; total = pages (§4.4)", query: z.strictObject(paging), output: pageOf(list) },
  "listMembers.add": { summary: "Add a customer to a list (§4.4)", body: z.strictObject({ data: listMemberInput }), output: z.looseObject({ data: listMember }) },
  "listMembers.delete": { summary: "Remove a membership by membership id (§4.4)", params: idParams, output: notShown },
  "listMembers.removeFromList": { summary: "Remove customers from a list (§4.4)", query: z.strictObject({ customerIds: idListParam, listId: id }), output: notShown },
  "listMembers.addBatch": {
    summary: "Add several list memberships (§4.4)",
    body: z.strictObject({ items: z.array(listMemberInput).min(1, "at least one item") }),
    output: z.looseObject({ items: z.array(listMember) }),
  },
  "listMembers.list": {
    summary: "List memberships; sinceId bounds sidx in sort order; rows ≤ 10000, sidx customerId by default (§4.4, §8)",
    query: z.strictObject({
      listId: id.optional(),
      customerId: id.optional(),
      sinceId: id.optional(),
      rows: intParam(1, LIMITS.listMemberRows).optional(),
      sidx: z.enum(["id", "listId", "customerId"]).optional(),
      sord: sord.optional(),
    }),
    output: z.looseObject({ items: z.array(listMember) }),
  },
  "listMembers.count": {
    summary: "Count the members of a list, optionally by join time (§4.4)",
    query: z.strictObject({ listId: id, joinListDateSince: utcFilter.optional(), joinListDateTo: utcFilter.optional() }),
    output: countOutput,
  },

  // §4.5 Tags
  "tagDimensions.create": {
    summary: "Create a tag dimension (§4.5, §8: key and name ≤ 255)",
    body: z.strictObject({ name: text(LIMITS.dimensionName).min(1, "is required"), dimensionKey: text(LIMITS.dimensionKey).min(1, "is required") }),
    output: tagDimension,
  },
  "tagDimensions.list": { summary: "List tag dimensions; max 20 by default (§4.5)", query: z.strictObject({ max: intParam(1, 10_000).optional() }), output: z.array(tagDimension) },
  "tags.create": {
    summary: "Create a tag in a dimension (§4.5, §8: name ≤ 32, dimension ≤ 255)",
    body: z.strictObject({ name: tagName.min(1, "is required"), dimension: tagDimensionName.min(1, "is required") }),
    output: tag,
  },
  "tags.update": {
    summary: "Rename a tag or move it to another dimension (§4.5)",
    params: idParams,
    body: z.strictObject({ name: tagName.min(1).optional(), dimension: tagDimensionName.min(1).optional() }),
    output: tag,
  },
  "tags.delete": { summary: "Delete a tag (§4.5)", params: idParams, output: notShown },
  "tags.list": { summary: "Page through tags; sidx id by default (§4.5)", query: z.strictObject(paging), output: pageOf(tag) },
  "customerTags.add": {
    summary: "Tag a customer; returns the added tag names (§4.5)",
    body: z.strictObject({ customerId: id, tags: z.array(z.strictObject({ name: tagName.min(1, "is required") })).min(1, "at least one tag") }),
    output: z.array(z.string()),
  },
  "customerTags.remove": {
    summary: "Untag a customer; returns the removed tag names (§4.5)",
    body: z.strictObject({ customerId: id, tags: z.array(tagName.min(1)).min(1, "at least one tag") }),
    output: z.array(z.string()),
  },
  "customerTags.get": {
    summary: "Tags of customers: customer id → comma-separated tag names (§4.5)",
    query: z.strictObject({ customerId: idListParam }),
    output: z.record(z.string(), z.string().nullable()),
  },
  "tags.merge": { summary: "Give fromId's customers the toId tag and delete fromId (§4.5)", params: z.strictObject({ fromId: id, toId: id }), output: success },
  "tags.importExternal": {
    summary: "Import external tags (each ≤ 64 characters); all of today's files when omitted (§4.5, §8)",
    body: z.strictObject({ tags: z.array(text(LIMITS.externalTagName).min(1)).optional() }),
    output: z.looseObject({ code: z.string().nullish(), success: z.array(z.string()).nullish(), failed: z.array(z.string()).nullish() }),
  },

  // §4.6 Media data
  "media.importData": {
    summary: "Import exposure/click files from object storage; returns task ids (§4.6)",
    body: z.strictObject({
      fileList: z
        .array(z.strictObject({ file: text().min(1, "is required"), eventType: z.enum(["event.mediaView", "event.mediaClick"]).optional() }))
        .min(1, "at least one file"),
    }),
    output: z.looseObject({ taskList: z.array(textOrNumber).nullish() }),
  },

  // §4.7 Authorization and environment lookup (server-side only)
  "auth.authorize": {
    summary: "Browser redirect to the authorization page; returns code, timestamp, hmac, state (§4.7, §5.2)",
    query: z.strictObject({ client_id: text().min(1), redirect_uri: z.url(), response_type: z.literal("code"), state: text().min(1) }),
    output: notShown,
  },
  "auth.exchangeCode": {
    summary: "Exchange an authorization code for tokens (form-urlencoded; token_type authorization_code, 7200 s) (§4.7, §5.2.5)",
    body: z.strictObject({ grant_type: z.literal("authorization_code"), code: text().min(1), redirect_uri: z.url() }),
    output: tokenResponse,
  },
  "auth.refresh": {
    summary: "Renew the access token with the refresh token (§4.7, §5.2.7)",
    body: z.strictObject({ grant_type: z.literal("refresh_token"), refresh_token: text().min(1) }),
    output: tokenResponse,
  },
  "users.current": { summary: "The current platform user, with tenantId; failures are {error_code, error_description} (§4.7, §7.4)", output: currentUser },
  "extension.cloudinfo": {
    summary: "Exchange the one-time getOpenAppIdToken for the environment's domains (§4.7, §5.4)",
    query: z.strictObject({ token: text().min(1) }),
    output: z.looseObject({
      openAppId: textOrNumber,
      authDomain: z.string(),
      apiDomain: z.string(),
      // Descriptive only: a value of another type is dropped, not a failed install.
      productType: outText.catch(null),
      productVersion: outText.catch(null),
    }),
  },

  // §4.8 Shops and shop groups
  "stores.create": { summary: "Create a shop from shopInfoAll (§4.8)", body: z.strictObject({ shopInfoAll }), output: storeResult },
  "stores.update": { summary: "Replace a shop's shopInfoAll (§4.8)", params: idParams, body: z.strictObject({ shopInfoAll }), output: storeResult },
  "stores.delete": {
    summary: "Delete a shop; success is {error:{message:'success'}} (§4.8, §7.5)",
    params: idParams,
    output: z.looseObject({ error: z.looseObject({ code: z.unknown().optional(), message: z.string().nullish() }).nullish() }),
  },
  "storeGroups.create": {
    summary: "Create a shop group from comma-separated shop ids (§4.8)",
    body: z.strictObject({ name: text().min(1, "is required"), remark: text(), shopList: idListParam }),
    output: z.looseObject({
      shopGroup: z
        .looseObject({ success: z.array(outId).nullish(), failed: z.array(outId).nullish(), shopGroup: shopGroup.nullish() })
        .nullish(),
    }),
  },
  "storeGroups.get": { summary: "The shops of a group (§4.8)", params: z.strictObject({ groupId: id }), output: z.looseObject({ shopGroupList: z.array(shop).nullish() }) },
} satisfies { [K in OperationName]: Schemas };

type Routes = typeof routes;
type Schemata = typeof schemas;

export const operations = Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, { ...route, ...schemas[name as OperationName] }])) as {
  [K in OperationName]: Routes[K] & Schemata[K];
};

export type Operations = typeof operations;

/** Every operation, in table order. */
export const operationList: readonly Operation[] = Object.values(operations);

// ── input / output types ────────────────────────────────────────────────────────────────────────

type Part<S, Key extends string> = S extends z.ZodType
  ? Record<never, never> extends z.output<S>
    ? { [K in Key]?: z.output<S> }
    : { [K in Key]: z.output<S> }
  : { [K in Key]?: undefined };

/**
 * What a caller passes: `{ params, query, body }` in their parsed form (ids as decimal strings,
 * booleans, numbers). Parts an operation does not take are absent.
 */
export type OperationInput<O extends OperationSpec> = Part<O["params"], "params"> & Part<O["query"], "query"> & Part<O["body"], "body">;
export type OperationOutput<O extends OperationSpec> = z.output<O["output"]>;

export type InputOf<N extends OperationName> = OperationInput<Operations[N]>;
export type OutputOf<N extends OperationName> = OperationOutput<Operations[N]>;
