import { z } from "zod";
import {
  customer,
  customerEvent,
  customerStatistics,
  customerWrite,
  eventFields,
  identity,
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
import { boolParam, decimal, id, idListParam, intParam, outId, outInt, sord, text, textOrNumber, utcBodyTime, utcFilter, utcFilterZ } from "./schema-helpers";

/**
 * THE table of platform operations (§4.1–§4.8, authorization included). The typed client
 * (`client.ts`), the proxy's allowlist (`proxy.ts`, `routes.ts`), the console's query keys (below)
 * and the sandbox's /openapi.json all derive from it; no endpoint is listed anywhere else.
 *
 * Input is `{ params, query, body }`: path parameters, query parameters and the request body, each
 * a zod 4 schema. Query schemas accept strings (as they arrive in a URL) and typed values alike.
 * To render JSON Schema use `z.toJSONSchema(schema, { io: "input" })` for request parts and
 * `{ io: "output" }` or `"input"` for responses (ids render as `integer`/`int64`).
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Which address of the environment an operation is on (§4, §4.7). */
export type OperationBase = "api" | "auth" | "extension";

/**
 * How the call is authorized: `query` = `access_token` query parameter (§5.1.1); `bearer` =
 * `Authorization: Bearer` (§4.7 users/current); `client` = client id + secret in the form body
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

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type OperationSpec = {
  method: HttpMethod;
  /** Path template under the base address, e.g. `/v1/customers/{id}`. */
  path: string;
  base: OperationBase;
  auth: OperationAuth;
  /** The resource it reads or writes: the second element of its query keys. */
  resource: Resource;
  /** What it does, citing the spec. */
  summary: string;
  /** Safe to repeat: the client retries only these (network errors, 429, 502–504). */
  idempotent: boolean;
  /** Reachable from the browser through `/api/platform/v1/...` (resource API operations only). */
  browser: boolean;
  /** A browser redirect (authorize), never called by the server. */
  redirect?: true;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  /** Request body encoding; `json` unless the spec says otherwise (token grants are form-urlencoded). */
  bodyEncoding?: "json" | "form";
  output: z.ZodType;
  /** Resources whose cached queries a successful call makes stale (mutations). */
  invalidates?: readonly Resource[];
};

export type Operation<Name extends string = string, S extends OperationSpec = OperationSpec> = S & { name: Name };

function defineOperations<const T extends Record<string, OperationSpec>>(specs: T): { [K in keyof T & string]: Operation<K, T[K]> } {
  const out: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(specs)) out[name] = { ...spec, name };
  return out as { [K in keyof T & string]: Operation<K, T[K]> };
}

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

const identityRef = z.strictObject({ identityType: text(32).min(1, "is required"), identityValue: text(128).min(1, "is required") });
const mergeResult = z.looseObject({ data: z.looseObject({ customerId: id }) });
const success = z.looseObject({ success: z.boolean() });
const eventByIdentity = z.looseObject({ identityType: text(32).min(1, "is required"), identityValue: text(128).min(1, "is required"), ...eventFields });
const storeResult = z.looseObject({ shop: shop.nullish(), error: z.looseObject({ code: z.unknown().optional(), message: z.string().nullish() }).nullish() });
const tokenResponse = z.looseObject({
  access_token: z.string(),
  token_type: z.string().nullish(),
  expires_in: outInt,
  refresh_token: z.string().nullish(),
});

// ── the table ───────────────────────────────────────────────────────────────────────────────────

export const operations = defineOperations({
  // §4.1 Customers and identities
  "customers.createWithIdentities": {
    method: "POST", path: "/v1/customerandidentities", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Create or update a customer with identities; merges by bound identity, then email/mobile (§4.1)",
    query: z.strictObject({ nullAble: boolParam.optional(), mergeByEmail: boolParam.optional(), mergeByMobile: boolParam.optional() }),
    body: z.strictObject({ customer: customerWrite, customerIdentities: z.array(identityInput) }),
    output: customer, invalidates: ["customers", "identities"],
  },
  "customers.upsert": {
    method: "POST", path: "/v1/customers", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Create a customer, or update the one found by mobile/email; 201 new, 200 existing (§4.1)",
    body: customerWrite.extend({ createMethod: text().nullish() }),
    output: customer, invalidates: ["customers"],
  },
  "customers.update": {
    method: "PUT", path: "/v1/customers/{id}", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Update a customer; returns the customer as it was before the change (§4.1)",
    params: idParams,
    query: z.strictObject({ forceUpdate: boolParam.optional(), nullAble: boolParam.optional() }),
    body: customerWrite,
    output: customer, invalidates: ["customers"],
  },
  "customers.delete": {
    method: "DELETE", path: "/v1/customers/{id}", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Delete a customer; HTTP 204 (§4.1)",
    params: idParams, output: notShown, invalidates: ["customers", "identities", "listMembers", "customerTags"],
  },
  "customers.get": {
    method: "GET", path: "/v1/customers/{id}", base: "api", auth: "query", resource: "customers", browser: true, idempotent: true,
    summary: "Read a customer (§4.1)",
    params: idParams, output: customer,
  },
  "customers.list": {
    method: "GET", path: "/v1/customers", base: "api", auth: "query", resource: "customers", browser: true, idempotent: true,
    summary: "Query customers with filters and paging; rows 20, page 1, sidx id, sord asc by default (§4.1, §8)",
    query: z.strictObject({
      ...customerFilters,
      email: text().optional(),
      hasMobile: boolParam.optional(),
      hasEmail: boolParam.optional(),
      identityType: text(32).optional(),
      identityValue: text(128).optional(),
      idFrom: id.optional(),
      idTo: id.optional(),
      ...paging,
    }),
    output: z.looseObject({ rows: z.array(customer) }),
  },
  "customers.count": {
    method: "GET", path: "/v1/customers/count", base: "api", auth: "query", resource: "customers", browser: true, idempotent: true,
    summary: "Count customers matching the filters (§4.1)",
    query: z.strictObject(customerFilters),
    output: countOutput,
  },
  "identities.add": {
    method: "POST", path: "/v1/customeridentities", base: "api", auth: "query", resource: "identities", browser: true, idempotent: false,
    summary: "Add an identity to a customer (§4.1, §8 lengths)",
    body: identityInput.extend({ customerId: id }),
    output: identity, invalidates: ["identities", "customers"],
  },
  "identities.list": {
    method: "GET", path: "/v1/customeridentities", base: "api", auth: "query", resource: "identities", browser: true, idempotent: true,
    summary: "Identities of customers, or customer ids of an identity (§4.1)",
    query: z.strictObject({ customerIds: idListParam.optional(), identityType: text(32).optional(), identityValue: text(128).optional() }),
    output: z.array(identity),
  },
  "identities.getByMd5": {
    method: "GET", path: "/v1/customerService/getCustomerIdentityByMd5", base: "api", auth: "query", resource: "identities", browser: true, idempotent: true,
    summary: "Find an MD5 identity; not found is error 409200 (§4.1, §2.2)",
    query: z.strictObject({ md5type: z.enum(["common", "marketplace"]), md5value: text().min(1, "is required") }),
    output: md5Identity,
  },
  "customers.statistics": {
    method: "GET", path: "/v1/customerStatistics", base: "api", auth: "query", resource: "customers", browser: true, idempotent: true,
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
    method: "POST", path: "/v1/customerService/mergeCustomerByIdentities", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Merge the customer of `from` into the customer of `to`; the source is deleted (§4.1)",
    body: z.strictObject({ from: identityRef, to: identityRef }),
    output: mergeResult, invalidates: ["customers", "identities", "listMembers", "customerTags"],
  },
  "customers.mergeById": {
    method: "POST", path: "/v1/customerService/mergeCustomerById", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Merge customer fromId into toId; fromId is deleted (§4.1)",
    query: z.strictObject({ fromId: id, toId: id }),
    output: mergeResult, invalidates: ["customers", "identities", "listMembers", "customerTags"],
  },
  "customers.unbindMessenger": {
    method: "POST", path: "/v1/customers/messenger/unbinding", base: "api", auth: "query", resource: "customers", browser: true, idempotent: false,
    summary: "Move a union id and its open ids to a new customer; unionid wins over openid (§4.1, §6)",
    body: z
      .strictObject({ openid: text().nullish(), unionid: text().nullish() })
      .refine((b) => Boolean(b.openid || b.unionid), { message: "openid or unionid is required", path: ["openid"] }),
    output: z.looseObject({ customerId: id, identities: z.array(z.looseObject({ type: z.string().nullish(), value: z.string().nullish() })).nullish() }),
    invalidates: ["customers", "identities", "events"],
  },

  // §4.2 Orders (deals)
  "deals.create": {
    method: "POST", path: "/v1/deals", base: "api", auth: "query", resource: "deals", browser: true, idempotent: false,
    summary: "Create an order with lines; an existing orderNo is replaced (§4.2)",
    body: z
      .looseObject({ ...orderFields, lines: z.array(orderLineInput).optional(), customerIdentities: z.array(identityInput).optional() })
      .refine((b) => b.customerId !== undefined || (b.customerIdentities?.length ?? 0) > 0, {
        message: "customerId or customerIdentities is required",
        path: ["customerId"],
      }),
    output: order, invalidates: ["deals", "customers"],
  },
  "deals.get": {
    method: "GET", path: "/v1/deals/{orderNo}", base: "api", auth: "query", resource: "deals", browser: true, idempotent: true,
    summary: "Read an order with its lines; last month only (§4.2, §2.4)",
    params: orderNoParams, output: order,
  },
  "deals.list": {
    method: "GET", path: "/v1/deals", base: "api", auth: "query", resource: "deals", browser: true, idempotent: true,
    summary: "List orders of the last month; sidx dateOrder by default (§4.2)",
    query: z.strictObject({ customerId: id.optional(), ...paging }),
    output: z.looseObject({ page: outInt, records: outInt, total: outInt, rows: z.array(order) }),
  },
  "deals.update": {
    method: "PUT", path: "/v1/deals/{orderNo}", base: "api", auth: "query", resource: "deals", browser: true, idempotent: false,
    summary: "Change order fields; returns the full order (§4.2)",
    params: orderNoParams,
    body: z.looseObject({
      ...orderFields,
      orderNo: orderFields.orderNo.optional(),
      amountPaid: decimal.optional(),
      dateOrder: utcBodyTime.optional(),
      lines: z.array(orderLineInput).optional(),
    }),
    output: order, invalidates: ["deals"],
  },
  "deals.cancel": {
    method: "POST", path: "/v1/dealService/cancel", base: "api", auth: "query", resource: "deals", browser: true, idempotent: false,
    summary: "Cancel an order: state 已取消; cancelDate defaults to its last update (§4.2, §3)",
    body: z.strictObject({ orderNo: text().min(1, "is required"), cancelDate: utcBodyTime.optional() }),
    output: order, invalidates: ["deals"],
  },
  "deals.refund": {
    method: "POST", path: "/v1/dealService/refund", base: "api", auth: "query", resource: "deals", browser: true, idempotent: false,
    summary: "Refund an order fully (完全退单) or partly (部分退单) (§4.2, §3)",
    body: z.strictObject({
      orderNo: text().min(1, "is required"),
      refundLines: z.array(z.looseObject({ lineId: text().min(1, "is required") })).optional(),
      refundTotal: decimal.optional(),
      refundDate: utcBodyTime.optional(),
      state: z.enum(["完全退单", "部分退单"], { error: "must be 完全退单 (full) or 部分退单 (partial)" }),
      reason: text().optional(),
    }),
    output: refund, invalidates: ["deals"],
  },
  "deals.deleteRefund": {
    method: "POST", path: "/v1/dealService/deleteRefund", base: "api", auth: "query", resource: "deals", browser: true, idempotent: false,
    summary: "Remove the refund of an order; returns it with empty refundLines (§4.2, §3)",
    body: z.strictObject({ orderNo: text().min(1, "is required") }),
    output: refund, invalidates: ["deals"],
  },
  "deals.delete": {
    method: "DELETE", path: "/v1/deals/{orderNo}", base: "api", auth: "query", resource: "deals", browser: true, idempotent: false,
    summary: "Delete an order (§4.2)",
    params: orderNoParams, output: notShown, invalidates: ["deals"],
  },
  "deals.getByOrderNo": {
    method: "GET", path: "/v1/dealService/getDealByOrderNo", base: "api", auth: "query", resource: "deals", browser: true, idempotent: true,
    summary: "Order with state, customerIdStr and full lines incl. custom line fields (§4.2)",
    query: z.strictObject({ orderNo: text().min(1, "is required") }),
    output: order,
  },

  // §4.3 Customer events
  "events.create": {
    method: "POST", path: "/v1/customerevents", base: "api", auth: "query", resource: "events", browser: true, idempotent: false,
    summary: "Record an event for a customer id; externalId dedupes (§4.3, §2.3)",
    body: z.looseObject({ customerId: id, ...eventFields }),
    output: customerEvent, invalidates: ["events", "customers"],
  },
  "events.push": {
    method: "POST", path: "/v1/collector/pushevent", base: "api", auth: "query", resource: "events", browser: true, idempotent: false,
    summary: "Collect an event by customer identity (§4.3)",
    body: eventByIdentity, output: success, invalidates: ["events", "customers"],
  },
  "events.batchPush": {
    method: "POST", path: "/v1/collector/batchPushEvents", base: "api", auth: "query", resource: "events", browser: true, idempotent: false,
    summary: "Collect up to 100 events; commonProps override each event's own (§4.3, §8)",
    body: z.strictObject({
      events: z.array(eventByIdentity).min(1, "at least one event").max(100, "at most 100 events per request"),
      commonProps: z.record(z.string(), z.unknown()).optional(),
    }),
    output: success, invalidates: ["events", "customers"],
  },
  "events.get": {
    method: "GET", path: "/v1/customerevents/{id}", base: "api", auth: "query", resource: "events", browser: true, idempotent: true,
    summary: "Read an event of the last month (§4.3)",
    params: idParams, output: customerEvent,
  },
  "events.list": {
    method: "GET", path: "/v1/customerevents", base: "api", auth: "query", resource: "events", browser: true, idempotent: true,
    summary: "Query events of the last month; max 20 by default, at most 1000 (§4.3, §8)",
    query: z.strictObject({
      customerId: id.optional(),
      event: text().optional(),
      idFrom: id.optional(),
      idTo: id.optional(),
      lastUpdatedFrom: utcFilterZ.optional(),
      lastUpdatedTo: utcFilterZ.optional(),
      max: intParam(1, 1000).optional(),
      sidx: text(64).optional(),
      sord: sord.optional(),
    }),
    output: z.array(customerEvent),
  },

  // §4.4 Lists
  "lists.create": {
    method: "POST", path: "/v1/lists", base: "api", auth: "query", resource: "lists", browser: true, idempotent: false,
    summary: "Create a static list; names are not unique (§4.4, §8: name ≤ 255)",
    body: z.strictObject({ name: text(255).min(1, "is required") }),
    output: list, invalidates: ["lists"],
  },
  "lists.delete": {
    method: "DELETE", path: "/v1/lists/{id}", base: "api", auth: "query", resource: "lists", browser: true, idempotent: false,
    summary: "Delete a list; its customers are kept (§4.4)",
    params: idParams, output: notShown, invalidates: ["lists", "listMembers"],
  },
  "lists.list": {
    method: "GET", path: "/v1/lists", base: "api", auth: "query", resource: "lists", browser: true, idempotent: true,
    summary: "Page through lists; sidx id by default; total = pages (§4.4)",
    query: z.strictObject(paging), output: pageOf(list),
  },
  "listMembers.add": {
    method: "POST", path: "/v1/listMembers", base: "api", auth: "query", resource: "listMembers", browser: true, idempotent: false,
    summary: "Add a customer to a list (§4.4)",
    body: z.strictObject({ data: listMemberInput }),
    output: z.looseObject({ data: listMember }), invalidates: ["listMembers"],
  },
  "listMembers.delete": {
    method: "DELETE", path: "/v1/listMembers/{id}", base: "api", auth: "query", resource: "listMembers", browser: true, idempotent: false,
    summary: "Remove a membership by membership id (§4.4)",
    params: idParams, output: notShown, invalidates: ["listMembers"],
  },
  "listMembers.removeFromList": {
    method: "POST", path: "/v1/listservice/removeFromList", base: "api", auth: "query", resource: "listMembers", browser: true, idempotent: false,
    summary: "Remove customers from a list (§4.4)",
    query: z.strictObject({ customerIds: idListParam, listId: id }),
    output: notShown, invalidates: ["listMembers"],
  },
  "listMembers.addBatch": {
    method: "POST", path: "/v1/listMembersBatch", base: "api", auth: "query", resource: "listMembers", browser: true, idempotent: false,
    summary: "Add several list memberships (§4.4)",
    body: z.strictObject({ items: z.array(listMemberInput).min(1, "at least one item") }),
    output: z.looseObject({ items: z.array(listMember) }), invalidates: ["listMembers"],
  },
  "listMembers.list": {
    method: "GET", path: "/v1/listMembers", base: "api", auth: "query", resource: "listMembers", browser: true, idempotent: true,
    summary: "List memberships; sinceId bounds sidx in sort order; rows ≤ 10000, sidx customerId by default (§4.4, §8)",
    query: z.strictObject({
      listId: id.optional(),
      customerId: id.optional(),
      sinceId: id.optional(),
      rows: intParam(1, 10_000).optional(),
      sidx: z.enum(["id", "listId", "customerId"]).optional(),
      sord: sord.optional(),
    }),
    output: z.looseObject({ items: z.array(listMember) }),
  },
  "listMembers.count": {
    method: "GET", path: "/v1/listservice/memberCount", base: "api", auth: "query", resource: "listMembers", browser: true, idempotent: true,
    summary: "Count the members of a list, optionally by join time (§4.4)",
    query: z.strictObject({ listId: id, joinListDateSince: utcFilter.optional(), joinListDateTo: utcFilter.optional() }),
    output: countOutput,
  },

  // §4.5 Tags
  "tagDimensions.create": {
    method: "POST", path: "/v1/tagdimensions", base: "api", auth: "query", resource: "tagDimensions", browser: true, idempotent: false,
    summary: "Create a tag dimension (§4.5, §8: key and name ≤ 255)",
    body: z.strictObject({ name: text(255).min(1, "is required"), dimensionKey: text(255).min(1, "is required") }),
    output: tagDimension, invalidates: ["tagDimensions"],
  },
  "tagDimensions.list": {
    method: "GET", path: "/v1/tagdimensions", base: "api", auth: "query", resource: "tagDimensions", browser: true, idempotent: true,
    summary: "List tag dimensions; max 20 by default (§4.5)",
    query: z.strictObject({ max: intParam(1, 10_000).optional() }),
    output: z.array(tagDimension),
  },
  "tags.create": {
    method: "POST", path: "/v1/tags", base: "api", auth: "query", resource: "tags", browser: true, idempotent: false,
    summary: "Create a tag in a dimension (§4.5, §8: name ≤ 32, dimension ≤ 255)",
    body: z.strictObject({ name: text(32).min(1, "is required"), dimension: text(255).min(1, "is required") }),
    output: tag, invalidates: ["tags"],
  },
  "tags.update": {
    method: "PUT", path: "/v1/tags/{id}", base: "api", auth: "query", resource: "tags", browser: true, idempotent: false,
    summary: "Rename a tag or move it to another dimension (§4.5)",
    params: idParams,
    body: z.strictObject({ name: text(32).min(1).optional(), dimension: text(255).min(1).optional() }),
    output: tag, invalidates: ["tags", "customerTags"],
  },
  "tags.delete": {
    method: "DELETE", path: "/v1/tags/{id}", base: "api", auth: "query", resource: "tags", browser: true, idempotent: false,
    summary: "Delete a tag (§4.5)",
    params: idParams, output: notShown, invalidates: ["tags", "customerTags"],
  },
  "tags.list": {
    method: "GET", path: "/v1/tags", base: "api", auth: "query", resource: "tags", browser: true, idempotent: true,
    summary: "Page through tags; sidx id by default (§4.5)",
    query: z.strictObject(paging), output: pageOf(tag),
  },
  "customerTags.add": {
    method: "POST", path: "/v1/tagservice/addCustomerTag", base: "api", auth: "query", resource: "customerTags", browser: true, idempotent: false,
    summary: "Tag a customer; returns the added tag names (§4.5)",
    body: z.strictObject({ customerId: id, tags: z.array(z.strictObject({ name: text(32).min(1, "is required") })).min(1, "at least one tag") }),
    output: z.array(z.string()), invalidates: ["customerTags"],
  },
  "customerTags.remove": {
    method: "POST", path: "/v1/tagservice/removeCustomerTag", base: "api", auth: "query", resource: "customerTags", browser: true, idempotent: false,
    summary: "Untag a customer; returns the removed tag names (§4.5)",
    body: z.strictObject({ customerId: id, tags: z.array(text(32).min(1)).min(1, "at least one tag") }),
    output: z.array(z.string()), invalidates: ["customerTags"],
  },
  "customerTags.get": {
    method: "GET", path: "/v1/tagservice/getCustomerTags", base: "api", auth: "query", resource: "customerTags", browser: true, idempotent: true,
    summary: "Tags of customers: customer id → comma-separated tag names (§4.5)",
    query: z.strictObject({ customerId: idListParam }),
    output: z.record(z.string(), z.string().nullable()),
  },
  "tags.merge": {
    method: "POST", path: "/v1/tags/{fromId}/mergeto/{toId}", base: "api", auth: "query", resource: "tags", browser: true, idempotent: false,
    summary: "Give fromId's customers the toId tag and delete fromId (§4.5)",
    params: z.strictObject({ fromId: id, toId: id }),
    output: success, invalidates: ["tags", "customerTags"],
  },
  "tags.importExternal": {
    method: "POST", path: "/v1/externalTags", base: "api", auth: "query", resource: "tags", browser: true, idempotent: false,
    summary: "Import external tags (each ≤ 64 characters); all of today's files when omitted (§4.5, §8)",
    body: z.strictObject({ tags: z.array(text(64).min(1)).optional() }),
    output: z.looseObject({ code: z.string().nullish(), success: z.array(z.string()).nullish(), failed: z.array(z.string()).nullish() }),
    invalidates: ["tags", "customerTags"],
  },

  // §4.6 Media data
  "media.importData": {
    method: "POST", path: "/v1/third_party_data/importData", base: "api", auth: "query", resource: "media", browser: true, idempotent: false,
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
    method: "GET", path: "/oauth2/authorize", base: "auth", auth: "none", resource: "auth", browser: false, idempotent: true, redirect: true,
    summary: "Browser redirect to the authorization page; returns code, timestamp, hmac, state (§4.7, §5.2)",
    query: z.strictObject({ client_id: text().min(1), redirect_uri: z.url(), response_type: z.literal("code"), state: text().min(1) }),
    output: notShown,
  },
  "auth.exchangeCode": {
    method: "POST", path: "/oauth2/token", base: "auth", auth: "client", resource: "auth", browser: false, idempotent: false, bodyEncoding: "form",
    summary: "Exchange an authorization code for tokens (form-urlencoded; token_type authorization_code, 7200 s) (§4.7, §5.2.5)",
    body: z.strictObject({ grant_type: z.literal("authorization_code"), code: text().min(1), redirect_uri: z.url() }),
    output: tokenResponse,
  },
  "auth.refresh": {
    method: "POST", path: "/oauth2/token", base: "auth", auth: "client", resource: "auth", browser: false, idempotent: false, bodyEncoding: "form",
    summary: "Renew the access token with the refresh token (§4.7, §5.2.7)",
    body: z.strictObject({ grant_type: z.literal("refresh_token"), refresh_token: text().min(1) }),
    output: tokenResponse,
  },
  "users.current": {
    method: "GET", path: "/v1/users/current", base: "api", auth: "bearer", resource: "auth", browser: true, idempotent: true,
    summary: "The current platform user, with tenantId; failures are {error_code, error_description} (§4.7, §7.4)",
    output: z.looseObject({ tenantId: id }),
  },
  "extension.cloudinfo": {
    method: "GET", path: "/cloudinfo", base: "extension", auth: "none", resource: "auth", browser: false, idempotent: false,
    summary: "Exchange the one-time getOpenAppIdToken for the environment's domains (§4.7, §5.4)",
    query: z.strictObject({ token: text().min(1) }),
    output: z.looseObject({
      openAppId: textOrNumber,
      authDomain: z.string(),
      apiDomain: z.string(),
      productType: z.string().nullish(),
      productVersion: z.string().nullish(),
    }),
  },

  // §4.8 Shops and shop groups
  "stores.create": {
    method: "POST", path: "/v1/stores", base: "api", auth: "query", resource: "stores", browser: true, idempotent: false,
    summary: "Create a shop from shopInfoAll (§4.8)",
    body: z.strictObject({ shopInfoAll }), output: storeResult, invalidates: ["stores"],
  },
  "stores.update": {
    method: "PUT", path: "/v1/stores/{id}", base: "api", auth: "query", resource: "stores", browser: true, idempotent: false,
    summary: "Replace a shop's shopInfoAll (§4.8)",
    params: idParams, body: z.strictObject({ shopInfoAll }), output: storeResult, invalidates: ["stores", "storeGroups"],
  },
  "stores.delete": {
    method: "DELETE", path: "/v1/stores/{id}", base: "api", auth: "query", resource: "stores", browser: true, idempotent: false,
    summary: "Delete a shop; success is {error:{message:'success'}} (§4.8, §7.5)",
    params: idParams,
    output: z.looseObject({ error: z.looseObject({ code: z.unknown().optional(), message: z.string().nullish() }).nullish() }),
    invalidates: ["stores", "storeGroups"],
  },
  "storeGroups.create": {
    method: "POST", path: "/v1/storesGroups", base: "api", auth: "query", resource: "storeGroups", browser: true, idempotent: false,
    summary: "Create a shop group from comma-separated shop ids (§4.8)",
    body: z.strictObject({ name: text().min(1, "is required"), remark: text(), shopList: idListParam }),
    output: z.looseObject({
      shopGroup: z
        .looseObject({ success: z.array(outId).nullish(), failed: z.array(outId).nullish(), shopGroup: shopGroup.nullish() })
        .nullish(),
    }),
    invalidates: ["storeGroups"],
  },
  "storeGroups.get": {
    method: "GET", path: "/v1/storesGroups/{groupId}", base: "api", auth: "query", resource: "storeGroups", browser: true, idempotent: true,
    summary: "The shops of a group (§4.8)",
    params: z.strictObject({ groupId: id }),
    output: z.looseObject({ shopGroupList: z.array(shop).nullish() }),
  },
});

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type AnyOperation = Operations[OperationName];

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

// ── query keys for the console (TanStack Query `queryOptions`) ─────────────────────────────────

/**
 * Query keys derived from the table: `["platform", resource, name, input]`. Invalidate a resource
 * with `platformKeys.resource("customers")`; a mutation's `invalidates` names the resources to refresh.
 */
export const platformKeys = {
  all: ["platform"] as const,
  resource: (resource: Resource) => ["platform", resource] as const,
  operation: <N extends OperationName>(name: N) => ["platform", operations[name].resource, name] as const,
  call: <N extends OperationName>(name: N, input: InputOf<N>) => ["platform", operations[name].resource, name, input] as const,
};

/** The query keys a successful call of `name` makes stale. */
export function invalidatedKeys(name: OperationName): ReadonlyArray<readonly ["platform", Resource]> {
  const op: OperationSpec = operations[name];
  return (op.invalidates ?? []).map((r) => platformKeys.resource(r));
}
