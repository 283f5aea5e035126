import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import type { ConsoleSession, SessionCheck } from "@/lib/auth/session";
import { randomUUID } from "node:crypto";
import { readJsonBody, refuseUnstorableText } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteContext } from "@/lib/http/route";
import { callPlatform, parseOperationInput } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor, type ProxyDeps } from "@/lib/proxy/proxy";
import { isPlatformId } from "@/lib/platform/ids";
import type { Store } from "@/lib/store/database";
import { addKnownShop, getGroup, getShop, listGroups, listShops, namesOf, recordShops, rememberCreatedGroup, rememberReadGroup, removeShop, shopWithSid, type PlatformShop } from "./shop-register";
import { abandonShopWrite, beginShopWrite, markShopWriteDone, markShopWriteSent, type ShopWrite, type ShopWriteOperation } from "./shop-writes";
import { SHOP_SORTS, SHOP_STATES, shopLabel, type AddKnownAnswer, type GroupCreateAnswer, type GroupListAnswer, type GroupReadAnswer, type ShopAnswer, type ShopListAnswer } from "./shops-api";

/**
 * The app's shop routes (contract: shops-api.ts). Each calls the platform with the session's
 * installation, as the proxy does (CSRF, `X-Open-App-Id` session, the installation's token), and
 * keeps the register (shop-register.ts) in step with what the platform answered (§4.8).
 */

/** The proxy's deps, the session with its user (who started what), the store and a clock. */
export type ShopRouteDeps = Omit<ProxyDeps, "requireSession"> & {
  requireSession(request: Request): Promise<SessionCheck<ConsoleSession>>;
  store: () => Promise<Store>;
  now?: () => number;
};
type Ctx = RouteContext<ShopRouteDeps>;

const now = (ctx: Ctx) => (ctx.deps.now ?? Date.now)();
const invalid = (message: string, field?: string) => new ApiError({ status: 422, code: "invalid_input", message, fieldErrors: field ? [{ field, message }] : [] });
const json = (ctx: Ctx, body: unknown, status = 200) => jsonResponse(status, JSON.stringify(body), ctx.requestId);

/** The id after `prefix` in the path (`/api/shops/123` → `123`), a 64-bit id or a 404. */
function pathId(ctx: Ctx, prefix: string): string {
  const id = decodeURIComponent(ctx.url.pathname.slice(prefix.length).replace(/\/$/, ""));
  if (!isPlatformId(id)) throw new ApiError({ status: 404, code: "not_found", message: "the id must be a shop or group id (digits)" });
  return id;
}

async function jsonBody(ctx: Ctx): Promise<unknown> {
  const body = await readJsonBody(ctx.request);
  if (body === undefined) throw invalid("a JSON body is required");
  return body;
}

/** A creation the store could not record: its intent holds what the platform answered, so the same request again finishes it. */
const RECORD_LATER = "The creation could not be recorded; send the same request again to finish it (it is not created twice).";

const REQUEST_KEY = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * A creation's body and its `requestKey` (the dialog's idempotency key, as the refunds route takes
 * it): the same key twice is one object. Without one the server makes one, so the intent is still
 * recorded, but a retry is a new request.
 */
function withRequestKey(body: unknown): { requestKey: string; body: unknown } {
  if (!body || typeof body !== "object" || Array.isArray(body) || !("requestKey" in body)) return { requestKey: randomUUID(), body };
  const { requestKey, ...rest } = body as Record<string, unknown>;
  if (typeof requestKey !== "string" || !REQUEST_KEY.test(requestKey)) throw invalid("8 to 64 of A-Z a-z 0-9 _ -", "requestKey");
  return { requestKey, body: rest };
}

/**
 * Claims the creation before the platform is asked (shop-writes.ts), then `send`s it; a refusal (or
 * any failure before the platform answered) drops the claim. What `send` returns is the platform's
 * id and answer, kept before `finish` writes the register; a second request with the key finishes
 * or repeats the first, never sends again.
 */
async function createOnce<A>(
  ctx: Ctx,
  store: Store,
  claim: { requestKey: string; operation: ShopWriteOperation; input: unknown },
  send: () => Promise<{ id: string; answer: A }>,
  finish: (id: string, input: unknown, answer: A, repeated: boolean) => Promise<Response>,
): Promise<Response> {
  const key = ctx.session;
  const begun = await beginShopWrite(store, key, { ...claim, by: ctx.session.userName || ctx.session.userId }, now(ctx));
  Object.assign(ctx.fields, { requestKey: claim.requestKey });
  if ("existing" in begun) return repeat(ctx, store, begun.existing, claim.operation, finish);
  let sent: { id: string; answer: A };
  try {
    sent = await send();
  } catch (error) {
    await abandonShopWrite(store, key, claim.requestKey);
    throw error;
  }
  await markShopWriteSent(store, key, claim.requestKey, sent.id, sent.answer);
  const response = await finish(sent.id, claim.input, sent.answer, false);
  await markShopWriteDone(store, key, claim.requestKey);
  return response;
}

/** The same request key again: in flight (409), or the first request's object (finished now if the register write was lost). */
async function repeat<A>(
  ctx: Ctx,
  store: Store,
  existing: ShopWrite,
  operation: ShopWriteOperation,
  finish: (id: string, input: unknown, answer: A, repeated: boolean) => Promise<Response>,
): Promise<Response> {
  if (existing.operation !== operation) throw new ApiError({ status: 409, code: "request_key_used", message: "This request key was used for another request." });
  if (existing.status === "sending" || !existing.resultId) throw new ApiError({ status: 409, code: "write_in_progress", message: "This request is already being sent; wait for its answer." });
  Object.assign(ctx.fields, { repeated: true });
  const response = await finish(existing.resultId, existing.input, existing.answer as A, true);
  if (existing.status === "sent") await markShopWriteDone(store, ctx.session, existing.requestKey);
  return response;
}

// ── shops ───────────────────────────────────────────────────────────────────────────────────────

const listQuery = z.object({
  q: z.string().max(200).optional(),
  sort: z.enum(SHOP_SORTS).optional(),
  order: z.enum(["asc", "desc"]).optional(),
  state: z.enum(SHOP_STATES).optional(),
});

/** `GET /api/shops?q=&sort=&order=&state=`: the register. */
export const handleShopList = apiRoute({ name: "shop list", op: "shops.list", scope: "shops", session: true }, async (ctx: Ctx) => {
  const query = listQuery.safeParse(Object.fromEntries(ctx.url.searchParams));
  if (!query.success) throw invalid(`the query is not valid: ${query.error.issues[0]?.path.join(".")} ${query.error.issues[0]?.message}`);
  const answer: ShopListAnswer = await listShops(await ctx.deps.store(), ctx.session, query.data);
  return json(ctx, answer);
});

/** The `shopInfoAll` of a request body, checked against §4.8 (the operation's schema), and its sid. */
function shopInput(body: unknown): { input: { body: { shopInfoAll: string } }; sid: string } {
  const check = parseOperationInput(operations["stores.create"], { body });
  if (!check.ok) {
    // The schema reports the inner JSON's problems on `shopInfoAll` as "business.base_info.<field>: <why>": named by field here.
    const fieldErrors = check.error.fieldErrors.map((e) => {
      const inner = /^(business\.base_info\.[\w.]+): (.*)$/.exec(e.message);
      return inner ? { field: `shopInfoAll.${inner[1]}`, message: inner[2]! } : e;
    });
    throw new ApiError({ status: 422, code: "invalid_input", message: "the shop is not valid (§4.8)", fieldErrors });
  }
  const shopInfoAll = (check.value.body as { shopInfoAll: string }).shopInfoAll;
  const info = JSON.parse(shopInfoAll) as { business: { base_info: { sid: string } } };
  // The inner JSON's strings reach the register's columns: the edge's text rule holds for them too.
  refuseUnstorableText(info, "shopInfoAll");
  const sid = String(info.business.base_info.sid).trim();
  return { input: { body: { shopInfoAll } }, sid };
}

/** The register refuses a sid another known shop holds (the platform may not: §4.8 does not say). */
async function checkSidFree(store: Store, ctx: Ctx, sid: string, exceptId?: string): Promise<void> {
  const holder = await shopWithSid(store, ctx.session, sid, exceptId);
  if (holder) {
    const message = `sid ${sid} is already used by shop ${shopLabel(holder) ?? holder.id} (${holder.id})`;
    throw new ApiError({ status: 409, code: "sid_taken", message, fieldErrors: [{ field: "sid", message }] });
  }
}

/** The shop of a create or update answer (§4.8 `{shop}`); an answer without one is the platform's fault. */
function answeredShop(output: { shop?: unknown }, fallbackId?: string): PlatformShop {
  const shop = output.shop as PlatformShop | null | undefined;
  const id = shop?.id ?? fallbackId;
  if (!id) throw new ApiError({ status: 502, code: "invalid_response", message: "the platform's answer names no shop" });
  return { ...shop, id: String(id) };
}

/** `POST /api/shops {requestKey?, shopInfoAll}`: recorded, created on the platform (§4.8), then registered; the same key twice is one shop. */
export const handleShopCreate = apiRoute({ name: "shop create", op: "shops.create", scope: "shops", session: true, unavailable: RECORD_LATER }, async (ctx: Ctx) => {
  const { requestKey, body } = withRequestKey(await jsonBody(ctx));
  const { input, sid } = shopInput(body);
  const store = await ctx.deps.store();
  return createOnce<PlatformShop>(
    ctx,
    store,
    { requestKey, operation: "shop.create", input: input.body },
    async () => {
      await checkSidFree(store, ctx, sid);
      const output = await callPlatform(operations["stores.create"], input as never, { ...(await callOptionsFor(ctx)), inputParsed: true });
      const shop = answeredShop(output);
      return { id: shop.id, answer: shop };
    },
    async (id, sentInput, shop, repeated) => {
      if (!(await getShop(store, ctx.session, id))) {
        await recordShops(store, ctx.session, [{ shopInfoAll: (sentInput as { shopInfoAll: string }).shopInfoAll, ...shop, id }], "created", now(ctx));
      }
      const answer: ShopAnswer = { shop: (await getShop(store, ctx.session, id))! };
      return json(ctx, answer, repeated ? 200 : 201);
    },
  );
});

/** `GET /api/shops/{id}`: the register's shop (the platform has no read by id). */
export const handleShopGet = apiRoute({ name: "shop read", op: "shops.get", scope: "shops", session: true }, async (ctx: Ctx) => {
  const id = pathId(ctx, "/api/shops/");
  const shop = await getShop(await ctx.deps.store(), ctx.session, id);
  if (!shop) throw new ApiError({ status: 404, code: "not_found", message: `shop ${id} is not in the register` });
  return json(ctx, { shop } satisfies ShopAnswer);
});

/** `PUT /api/shops/{id} {shopInfoAll}`: replace on the platform (§4.8), then register. */
export const handleShopUpdate = apiRoute({ name: "shop update", op: "shops.update", scope: "shops", session: true }, async (ctx: Ctx) => {
  const id = pathId(ctx, "/api/shops/");
  const { input, sid } = shopInput(await jsonBody(ctx));
  const store = await ctx.deps.store();
  await checkSidFree(store, ctx, sid, id);
  const output = await callPlatform(operations["stores.update"], { params: { id }, ...input } as never, { ...(await callOptionsFor(ctx)), inputParsed: true });
  const shop = answeredShop(output, id);
  await recordShops(store, ctx.session, [{ shopInfoAll: input.body.shopInfoAll, ...shop }], "updated", now(ctx));
  return json(ctx, { shop: (await getShop(store, ctx.session, shop.id))! } satisfies ShopAnswer);
});

/** `DELETE /api/shops/{id}`: delete on the platform (its `message: success` is success, §4.8, §7.5), then forget. */
export const handleShopDelete = apiRoute({ name: "shop delete", op: "shops.delete", scope: "shops", session: true }, async (ctx: Ctx) => {
  const id = pathId(ctx, "/api/shops/");
  await callPlatform(operations["stores.delete"], { params: { id } } as never, { ...(await callOptionsFor(ctx)), inputParsed: true });
  await removeShop(await ctx.deps.store(), ctx.session, id);
  return json(ctx, { deleted: id });
});

const knownBody = z.strictObject({ id: z.string().trim().refine(isPlatformId, "must be a shop id (digits)") });

/** `POST /api/shops/known {id}`: a shop id staff add by hand (read later through a group). */
export const handleShopAddKnown = apiRoute({ name: "shop add by id", op: "shops.addKnown", scope: "shops", session: true }, async (ctx: Ctx) => {
  const body = knownBody.safeParse(await jsonBody(ctx));
  if (!body.success) throw invalid(body.error.issues[0]?.message ?? "invalid", "id");
  const answer: AddKnownAnswer = await addKnownShop(await ctx.deps.store(), ctx.session, body.data.id, now(ctx));
  return json(ctx, answer, answer.added ? 201 : 200);
});

// ── groups ──────────────────────────────────────────────────────────────────────────────────────

const MAX_GROUP_SHOPS = 500;
const groupBody = z.strictObject({
  name: z.string().trim().min(1, "is required").max(255, "at most 255 characters"),
  remark: z.string().trim().min(1, "is required").max(1000, "at most 1000 characters"),
  shopIds: z
    .array(z.string().trim().refine(isPlatformId, "must be shop ids (digits)"))
    .min(1, "pick at least one shop")
    .max(MAX_GROUP_SHOPS, `at most ${MAX_GROUP_SHOPS} shops`),
});

/** `GET /api/shop-groups`: the groups the app created or opened. */
export const handleGroupList = apiRoute({ name: "shop group list", op: "shopGroups.list", scope: "shops", session: true }, async (ctx: Ctx) => {
  return json(ctx, { groups: await listGroups(await ctx.deps.store(), ctx.session) } satisfies GroupListAnswer);
});

/** `POST /api/shop-groups {name, remark, shopIds}`: create on the platform (§4.8), remember it, name the ids it answered. */
export const handleGroupCreate = apiRoute({ name: "shop group create", op: "shopGroups.create", scope: "shops", session: true, unavailable: RECORD_LATER }, async (ctx: Ctx) => {
  const { requestKey, body: raw } = withRequestKey(await jsonBody(ctx));
  const body = groupBody.safeParse(raw);
  if (!body.success) {
    const fieldErrors = body.error.issues.map((issue) => ({ field: String(issue.path[0] ?? "body"), message: issue.message }));
    throw new ApiError({ status: 422, code: "invalid_input", message: "the group is not valid", fieldErrors });
  }
  const shopIds = [...new Set(body.data.shopIds)];
  const { name, remark } = body.data;
  const store = await ctx.deps.store();
  type Sent = { success: string[]; failed: string[] };
  return createOnce<Sent>(
    ctx,
    store,
    { requestKey, operation: "group.create", input: { name, remark, shopIds } },
    async () => {
      const output = await callPlatform(operations["storeGroups.create"], { body: { name, remark, shopList: shopIds.join(",") } } as never, await callOptionsFor(ctx));
      const answer = output.shopGroup;
      const groupId = answer?.shopGroup?.id;
      if (groupId === undefined || groupId === null) throw new ApiError({ status: 502, code: "invalid_response", message: "the platform's answer names no group" });
      return { id: String(groupId), answer: { success: (answer?.success ?? []).map(String), failed: (answer?.failed ?? []).map(String) } };
    },
    async (id, sentInput, { success, failed }, repeated) => {
      const sentGroup = sentInput as { name: string; remark: string };
      const group =
        (await getGroup(store, ctx.session, id)) ??
        (await rememberCreatedGroup(store, ctx.session, { id, name: sentGroup.name, remark: sentGroup.remark, createdByName: ctx.session.userName, added: success, failed }, now(ctx)));
      const result: GroupCreateAnswer = { group, success: await namesOf(store, ctx.session, success), failed: await namesOf(store, ctx.session, failed) };
      return json(ctx, result, repeated ? 200 : 201);
    },
  );
});

/** `GET /api/shop-groups/{id}`: the group's shops from the platform (§4.8), which refresh the register. */
export const handleGroupRead = apiRoute({ name: "shop group read", op: "shopGroups.get", scope: "shops", session: true }, async (ctx: Ctx) => {
  const id = pathId(ctx, "/api/shop-groups/");
  const output = await callPlatform(operations["storeGroups.get"], { params: { groupId: id } } as never, await callOptionsFor(ctx));
  const listed = ((output.shopGroupList ?? []) as PlatformShop[]).filter((s) => s?.id !== undefined && s.id !== null).map((s) => ({ ...s, id: String(s.id) }));
  const store = await ctx.deps.store();
  const at = now(ctx);
  await recordShops(store, ctx.session, listed, "group", at);
  const group = await rememberReadGroup(store, ctx.session, id, listed.length, at);
  const shops = (await Promise.all(listed.map((s) => getShop(store, ctx.session, s.id)))).filter((s) => s !== undefined);
  return json(ctx, { group, shops } satisfies GroupReadAnswer);
});
