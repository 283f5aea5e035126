import "server-only";
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/http/api-error";
import type { ConsoleSession, SessionCheck } from "@/lib/auth/session";
import { refuseUnstorableText } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteInput, type RouteContext } from "@/lib/http/route";
import { callPlatform } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor, type ProxyDeps } from "@/lib/proxy/proxy";
import type { Store } from "@/lib/store/database";
import { addKnownShop, getGroup, getShop, listGroups, listShops, namesOf, recordShops, rememberCreatedGroup, rememberReadGroup, removeShop, shopWithSid, type PlatformShop } from "./shop-register";
import { abandonShopWrite, beginShopWrite, markShopWriteDone, markShopWriteSent, type ShopWrite, type ShopWriteOperation } from "./shop-writes";
import { shopLabel, type AddKnownAnswer, type GroupCreateAnswer, type GroupListAnswer, type GroupReadAnswer, type ShopAnswer, type ShopListAnswer } from "./shops-api";
import { shopsOperations } from "./shops-operations";

/**
 * The app's shop routes (contract: shops-api.ts; input schemas: shops-operations.ts). Each calls the platform with the session's
 * installation, as the proxy does (CSRF, `X-Open-App-Id` session, the installation's token), and
 * keeps the register (shop-register.ts) in step with what the platform answered (§4.8).
 */

/** The proxy's deps, the session with its user (who started what), the store and a clock. */
export type ShopRouteDeps = Omit<ProxyDeps, "requireSession"> & {
  requireSession(request: Request): Promise<SessionCheck<ConsoleSession>>;
  store: () => Promise<Store>;
  now?: () => number;
};
type Ctx<N extends keyof typeof shopsOperations> = RouteContext<ShopRouteDeps, RouteInput<(typeof shopsOperations)[N]>>;
/** What the helpers below take: any of the routes' contexts. */
type AnyCtx = RouteContext<ShopRouteDeps>;

const now = (ctx: AnyCtx) => (ctx.deps.now ?? Date.now)();
const json = (ctx: AnyCtx, body: unknown, status = 200) => jsonResponse(status, JSON.stringify(body), ctx.requestId);

/** A creation the store could not record: its intent holds what the platform answered, so the same request again finishes it. */
const RECORD_LATER = "The creation could not be recorded; send the same request again to finish it (it is not created twice).";

/**
 * Claims the creation before the platform is asked (shop-writes.ts), then `send`s it; a refusal (or
 * any failure before the platform answered) drops the claim. What `send` returns is the platform's
 * id and answer, kept before `finish` writes the register; a second request with the key finishes
 * or repeats the first, never sends again.
 */
async function createOnce<A>(
  ctx: AnyCtx,
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
  ctx: AnyCtx,
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

/** `GET /api/shops?q=&sort=&order=&state=`: the register. */
export const handleShopList = apiRoute({ name: "shop list", scope: "shops", operation: shopsOperations["shops.list"] }, async (ctx: Ctx<"shops.list">) => {
  const answer: ShopListAnswer = await listShops(await ctx.deps.store(), ctx.session, ctx.input.query);
  return json(ctx, answer);
});

/** The checked `shopInfoAll` (§4.8, serialized by the schema) as the platform's input, and its sid. */
function shopInput(body: { shopInfoAll: string }): { input: { body: { shopInfoAll: string } }; sid: string } {
  const { shopInfoAll } = body;
  const info = JSON.parse(shopInfoAll) as { business: { base_info: { sid: string } } };
  // The inner JSON's strings reach the register's columns: the edge's text rule holds for them too.
  refuseUnstorableText(info, "shopInfoAll");
  const sid = String(info.business.base_info.sid).trim();
  return { input: { body: { shopInfoAll } }, sid };
}

/** The register refuses a sid another known shop holds (the platform may not: §4.8 does not say). */
async function checkSidFree(store: Store, ctx: AnyCtx, sid: string, exceptId?: string): Promise<void> {
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
export const handleShopCreate = apiRoute({ name: "shop create", scope: "shops", operation: shopsOperations["shops.create"], unavailable: RECORD_LATER }, async (ctx: Ctx<"shops.create">) => {
  // Without a key from the dialog the server makes one: the intent is still recorded, but a retry is a new request.
  const requestKey = ctx.input.body.requestKey ?? randomUUID();
  const { input, sid } = shopInput(ctx.input.body);
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
export const handleShopGet = apiRoute({ name: "shop read", scope: "shops", operation: shopsOperations["shops.get"] }, async (ctx: Ctx<"shops.get">) => {
  const { id } = ctx.input.params;
  const shop = await getShop(await ctx.deps.store(), ctx.session, id);
  if (!shop) throw new ApiError({ status: 404, code: "not_found", message: `shop ${id} is not in the register` });
  return json(ctx, { shop } satisfies ShopAnswer);
});

/** `PUT /api/shops/{id} {shopInfoAll}`: replace on the platform (§4.8), then register. */
export const handleShopUpdate = apiRoute({ name: "shop update", scope: "shops", operation: shopsOperations["shops.update"] }, async (ctx: Ctx<"shops.update">) => {
  const { id } = ctx.input.params;
  const { input, sid } = shopInput(ctx.input.body);
  const store = await ctx.deps.store();
  await checkSidFree(store, ctx, sid, id);
  const output = await callPlatform(operations["stores.update"], { params: { id }, ...input } as never, { ...(await callOptionsFor(ctx)), inputParsed: true });
  const shop = answeredShop(output, id);
  await recordShops(store, ctx.session, [{ shopInfoAll: input.body.shopInfoAll, ...shop }], "updated", now(ctx));
  return json(ctx, { shop: (await getShop(store, ctx.session, shop.id))! } satisfies ShopAnswer);
});

/** `DELETE /api/shops/{id}`: delete on the platform (its `message: success` is success, §4.8, §7.5), then forget. */
export const handleShopDelete = apiRoute({ name: "shop delete", scope: "shops", operation: shopsOperations["shops.delete"] }, async (ctx: Ctx<"shops.delete">) => {
  const { id } = ctx.input.params;
  await callPlatform(operations["stores.delete"], { params: { id } } as never, { ...(await callOptionsFor(ctx)), inputParsed: true });
  await removeShop(await ctx.deps.store(), ctx.session, id);
  return json(ctx, { deleted: id });
});

/** `POST /api/shops/known {id}`: a shop id staff add by hand (read later through a group). */
export const handleShopAddKnown = apiRoute({ name: "shop add by id", scope: "shops", operation: shopsOperations["shops.addKnown"] }, async (ctx: Ctx<"shops.addKnown">) => {
  const answer: AddKnownAnswer = await addKnownShop(await ctx.deps.store(), ctx.session, ctx.input.body.id, now(ctx));
  return json(ctx, answer, answer.added ? 201 : 200);
});

// ── groups ──────────────────────────────────────────────────────────────────────────────────────

/** `GET /api/shop-groups`: the groups the app created or opened. */
export const handleGroupList = apiRoute({ name: "shop group list", scope: "shops", operation: shopsOperations["shopGroups.list"] }, async (ctx: Ctx<"shopGroups.list">) => {
  return json(ctx, { groups: await listGroups(await ctx.deps.store(), ctx.session) } satisfies GroupListAnswer);
});

/** `POST /api/shop-groups {requestKey?, name, remark, shopIds}`: recorded, created on the platform (§4.8), remembered; names the ids it answered; the same key twice is one group. */
export const handleGroupCreate = apiRoute({ name: "shop group create", scope: "shops", operation: shopsOperations["shopGroups.create"], unavailable: RECORD_LATER }, async (ctx: Ctx<"shopGroups.create">) => {
  const requestKey = ctx.input.body.requestKey ?? randomUUID();
  const shopIds = [...new Set(ctx.input.body.shopIds)];
  const { name, remark } = ctx.input.body;
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
export const handleGroupRead = apiRoute({ name: "shop group read", scope: "shops", operation: shopsOperations["shopGroups.get"] }, async (ctx: Ctx<"shopGroups.get">) => {
  const { id } = ctx.input.params;
  const output = await callPlatform(operations["storeGroups.get"], { params: { groupId: id } } as never, await callOptionsFor(ctx));
  const listed = ((output.shopGroupList ?? []) as PlatformShop[]).filter((s) => s?.id !== undefined && s.id !== null).map((s) => ({ ...s, id: String(s.id) }));
  const store = await ctx.deps.store();
  const at = now(ctx);
  await recordShops(store, ctx.session, listed, "group", at);
  const group = await rememberReadGroup(store, ctx.session, id, listed.length, at);
  const shops = (await Promise.all(listed.map((s) => getShop(store, ctx.session, s.id)))).filter((s) => s !== undefined);
  return json(ctx, { group, shops } satisfies GroupReadAnswer);
});
