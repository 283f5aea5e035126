import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteContext } from "@/lib/http/route";
import { callPlatform, parseOperationInput } from "@/lib/platform/client";
import { PlatformError } from "@/lib/platform/errors";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor, type PlatformRouteContext, type ProxyDeps } from "@/lib/proxy/proxy";
import type { Store } from "@/lib/store/database";
import { decimalText } from "./money";
import { MAX_REFUND_ORDERS, type RefundsAnswer } from "./refund-record";
import { abandonRefund, beginRefund, completeRefund, markRefundsDeleted, refundsOf, type RefundScope } from "./server-refund-store";

/**
 * `/api/orders/refunds` (docs/decisions/refunds-recorded-by-the-app.md): refunds made through the console, kept in the app's
 * store so every staff member of the tenant sees them (§4.2 has no read of refunds).
 * - `GET ?orderNo=A&orderNo=B` (1 to 100 numbers): the records of each order, newest first.
 * - `POST {requestKey, refund}`: §4.2 dealService/refund with the installation's token, recorded
 *   with the platform's answer. The same `requestKey` twice is one refund (a double click, a retry).
 * - `DELETE ?orderNo=`: §4.2 dealService/deleteRefund; the order's records are marked deleted.
 * Routes like the proxy (its deps: the `X-Open-App-Id` session, CSRF on writes, the token), plus the store.
 */
export type RefundRouteDeps = ProxyDeps & { store: () => Promise<Store> };
type Ctx = RouteContext<RefundRouteDeps>;

const invalid = (field: string, message: string) => new ApiError({ status: 422, code: "invalid_input", message: "the request is not valid", fieldErrors: [{ field, message }] });
const orderNoText = z.string().trim().min(1).max(255);

const scopeOf = (ctx: Ctx): RefundScope => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId });
/** The staff member's name for "recorded by" (the session holds ids and names only). */
const actorOf = (ctx: Ctx): string | undefined => {
  const session = ctx.session as { userName?: unknown; userId?: unknown };
  const name = typeof session.userName === "string" && session.userName !== "" ? session.userName : typeof session.userId === "string" ? session.userId : undefined;
  return name?.slice(0, 512);
};

function orderNosOf(url: URL): string[] {
  const all = url.searchParams.getAll("orderNo");
  if (all.length === 0) throw invalid("orderNo", "is required");
  if (all.length > MAX_REFUND_ORDERS) throw invalid("orderNo", `at most ${MAX_REFUND_ORDERS} order numbers`);
  return all.map((no, i) => {
    const checked = orderNoText.safeParse(no);
    if (!checked.success) throw invalid(`orderNo.${i}`, "must be 1 to 255 characters");
    return checked.data;
  });
}

const options = { name: "order refunds", op: "orders.refunds", scope: "order-refunds", session: true } as const;

export const handleRefundsGet = apiRoute<RefundRouteDeps>(options, async (ctx) => {
  const answer: RefundsAnswer = { refunds: await refundsOf(await ctx.deps.store(), scopeOf(ctx), orderNosOf(ctx.url)) };
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

const postBody = z.strictObject({
  requestKey: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "8 to 64 of A-Z a-z 0-9 _ -"),
  refund: z.unknown(),
});

export const handleRefundPost = apiRoute<RefundRouteDeps>(options, async (ctx) => {
  const envelope = postBody.safeParse((await readJsonBody(ctx.request)) ?? null);
  if (!envelope.success) {
    const fieldErrors = envelope.error.issues.map((issue) => ({ field: issue.path.join(".") || "body", message: issue.message }));
    throw new ApiError({ status: 422, code: "invalid_input", message: "the request is not valid", fieldErrors });
  }
  const op = operations["deals.refund"];
  // The operation's own schema (§4.2): the same rules as the proxy's.
  const input = parseOperationInput(op, { body: envelope.data.refund });
  if (!input.ok) throw input.error;
  const body = input.value.body as { orderNo: string; state: string; refundTotal?: unknown; reason?: string; refundLines?: { lineId: string }[] };
  const orderNo = orderNoText.safeParse(body.orderNo);
  if (!orderNo.success) throw invalid("refund.orderNo", "must be 1 to 255 characters");
  const store = await ctx.deps.store();
  const scope = scopeOf(ctx);
  const claim = await beginRefund(store, scope, {
    orderNo: orderNo.data,
    requestKey: envelope.data.requestKey,
    refundState: body.state,
    refundTotal: decimalText(body.refundTotal),
    reason: body.reason,
    lineIds: (body.refundLines ?? []).map((l) => String(l.lineId)),
    by: actorOf(ctx),
  });
  Object.assign(ctx.fields, { orderNo: orderNo.data });
  if ("existing" in claim) {
    if (claim.existing.status === "sending") throw new ApiError({ status: 409, code: "refund_in_progress", message: "This refund is already being sent; wait for its answer." });
    return jsonResponse(200, JSON.stringify({ refund: claim.existing, repeated: true }), ctx.requestId);
  }
  let answer: Record<string, unknown>;
  try {
    answer = (await callPlatform(op, input.value as never, { ...(await callOptionsFor(ctx as unknown as PlatformRouteContext)), inputParsed: true })) as Record<string, unknown>;
  } catch (error) {
    await abandonRefund(store, claim.id);
    throw error;
  }
  const record = await completeRefund(store, claim.id, answer);
  return jsonResponse(201, JSON.stringify({ refund: record }), ctx.requestId);
});

export const handleRefundDelete = apiRoute<RefundRouteDeps>(options, async (ctx) => {
  const [orderNo, ...more] = orderNosOf(ctx.url);
  if (more.length > 0) throw invalid("orderNo", "one order number");
  const store = await ctx.deps.store();
  let answer: unknown;
  try {
    answer = await callPlatform(operations["deals.deleteRefund"], { body: { orderNo: orderNo! } }, await callOptionsFor(ctx as unknown as PlatformRouteContext));
  } catch (error) {
    // The platform has no refund of this order (deleted elsewhere): what this console recorded no longer stands either.
    if (error instanceof PlatformError && error.kind === "not_found") await markRefundsDeleted(store, scopeOf(ctx), orderNo!, actorOf(ctx));
    throw error;
  }
  const marked = await markRefundsDeleted(store, scopeOf(ctx), orderNo!, actorOf(ctx));
  return jsonResponse(200, JSON.stringify({ refund: answer, markedDeleted: marked }), ctx.requestId);
});
