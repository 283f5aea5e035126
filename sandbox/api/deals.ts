import { parseJson, stringifyJson } from "@/lib/platform/json";
import type { SandboxDb } from "../db";
import { sendJson } from "../http";
import { nextId } from "../ids";
import { handle, handleBody, isBlank, isObject, lastMonthStart, parseBodyTime, parseId, queryId, readObject, sendBadBody, sendError, sendFieldError, sendNotFound, utc, type ApiContext, type Json, type ResourceRoutes } from "./common";
import { customerStore } from "./customer-store";
import { identityStore, validateIdentity, type IdentityInput } from "./identities";
import { selectPage, SqlFilter } from "./paging";

/** §3 order states shown by the spec. */
export const STATE_PAID = "已付款";
export const STATE_CANCELLED = "已取消";
export const REFUND_FULL = "完全退单";
export const REFUND_PARTIAL = "部分退单";

const MONEY_FIELDS = ["amountTotal", "amountPaid", "amountDiscount"] as const;
const STRING_FIELDS = [
  "orderNo", "discountType", "groupId", "paymentTerm", "paymentNo", "type", "store", "salesChannel", "shippingMethod",
  "contactName", "contactTel", "zipcode", "shippingProvince", "shippingCity", "shippingCounty", "shippingStreet",
  "shippingAddress", "buyerMessage", "remark", "campaign", "currency",
] as const;
/** §2.4 order fields in response order (`couponCode` is the model's spelling). */
const ORDER_FIELDS = [
  "orderNo", "amountTotal", "amountPaid", "amountDiscount", "discountType", "couponCode", "groupId", "paymentTerm", "paymentNo",
  "type", "dateOrder", "store", "salesChannel", "shippingMethod", "contactName", "contactTel", "zipcode", "shippingProvince",
  "shippingCity", "shippingCounty", "shippingStreet", "shippingAddress", "buyerMessage", "remark", "campaign", "merchantPoint", "currency",
] as const;
const LINE_FIELDS = [
  "orderNo", "lineId", "discountType", "counponCode", "productName", "productId", "skuId", "brandName", "category", "qty",
  "priceUnit", "priceSubTotal", "priceSubPaid",
] as const;
const CUSTOM_LINE_FIELDS = [
  "lNum1", "lNum2", "lNum3", "lNum4", "lDate1", "lDate2", "lDate3", "lDate4", "lAttr1", "lAttr2", "lAttr3", "lAttr4", "lAttr5", "lAttr6",
] as const;

type Problem = { fieldName: string; message: string };
type DealRow = { id: bigint; customer_id: bigint; order_no: string; date_order: bigint; state: string; date_created: bigint; last_updated: bigint; doc: string };
const DEAL_COLUMNS = "id, customer_id, order_no, date_order, state, date_created, last_updated, doc";

/**
 * The exact sum of decimal amounts (§2.4 BigDecimal): summed as integers at the widest scale of the
 * values, so 0.1 + 0.2 is 0.3 (a plain float sum gives 0.30000000000000004).
 */
export function sumDecimals(values: unknown[]): number {
  const texts = values.map((v) => String(v ?? 0));
  if (texts.some((t) => !/^-?\d+(\.\d+)?$/.test(t))) return values.reduce<number>((n, v) => n + Number(v ?? 0), 0);
  const scale = Math.max(0, ...texts.map((t) => (t.split(".")[1] ?? "").length));
  const total = texts.reduce((n, t) => {
    const [whole = "0", fraction = ""] = t.replace(/^-/, "").split(".");
    const units = BigInt(whole + fraction.padEnd(scale, "0"));
    return n + (t.startsWith("-") ? -units : units);
  }, 0n);
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return Number(`${negative ? "-" : ""}${text}`);
}

const isNumber = (v: unknown) => typeof v === "number" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v));

/** Validates order fields (§2.4, §4.2). `partial` is the PUT case: nothing is required. */
function validateOrder(body: Json, partial: boolean): { doc: Json; lines?: Json[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const bad = (fieldName: string, message: string) => problems.push({ fieldName, message });
  const doc: Json = {};
  if (!partial) {
    if (typeof body.orderNo !== "string" || body.orderNo.trim() === "") bad("orderNo", "orderNo is required");
    if (isBlank(body.amountPaid)) bad("amountPaid", "amountPaid is required");
    if (isBlank(body.dateOrder)) bad("dateOrder", "dateOrder is required");
  }
  for (const f of MONEY_FIELDS) {
    if (isBlank(body[f])) continue;
    if (!isNumber(body[f])) bad(f, `${f} must be a number`);
    else doc[f] = Number(body[f]);
  }
  for (const f of STRING_FIELDS) {
    if (isBlank(body[f])) continue;
    if (typeof body[f] !== "string") bad(f, `${f} must be a string`);
    else doc[f] = body[f];
  }
  // §2.4: `counponCode` in create requests; `couponCode` in the order model (accepted too).
  const coupon = body.counponCode ?? body.couponCode;
  if (!isBlank(coupon)) doc.couponCode = String(coupon);
  if (!isBlank(body.merchantPoint)) {
    if (!Number.isInteger(body.merchantPoint)) bad("merchantPoint", "merchantPoint must be an integer");
    else doc.merchantPoint = body.merchantPoint;
  }
  if (!isBlank(body.dateOrder)) {
    const ms = parseBodyTime(body.dateOrder);
    if (ms === null) bad("dateOrder", "dateOrder must be a UTC time YYYY-MM-DDTHH:MM:SSZ");
    else doc.dateOrder = utc(ms);
  }
  let lines: Json[] | undefined;
  if (body.lines !== undefined && body.lines !== null) {
    if (!Array.isArray(body.lines)) bad("lines", "lines must be an array");
    else {
      lines = [];
      const seen = new Set<string>();
      body.lines.forEach((item, i) => {
        const p = `lines[${i}].`;
        if (!isObject(item)) return bad(`lines[${i}]`, "each line must be an object");
        const line: Json = {};
        if (isBlank(item.lineId)) bad(`${p}lineId`, "lineId is required");
        else if (seen.has(String(item.lineId))) bad(`${p}lineId`, "lineId must be unique within the order");
        else seen.add(String(item.lineId));
        if (typeof item.productName !== "string" || item.productName === "") bad(`${p}productName`, "productName is required");
        if (!Number.isInteger(item.qty)) bad(`${p}qty`, "qty is required and must be an integer");
        for (const f of [...LINE_FIELDS, ...CUSTOM_LINE_FIELDS]) {
          const v = f === "counponCode" ? (item.counponCode ?? item.couponCode) : item[f];
          if (isBlank(v)) continue;
          if ((f.startsWith("price") || f.startsWith("lNum")) && !isNumber(v)) bad(`${p}${f}`, `${f} must be a number`);
          else line[f] = f.startsWith("price") || f.startsWith("lNum") ? Number(v) : f === "qty" ? v : String(v);
        }
        lines!.push(line);
      });
    }
  }
  return { doc, lines, problems };
}

function lineOut(line: Json, orderNo: string, custom: boolean): Json {
  const out: Json = {};
  for (const f of LINE_FIELDS) out[f] = line[f] ?? null;
  out.orderNo = orderNo;
  if (custom) for (const f of CUSTOM_LINE_FIELDS) out[f] = line[f] ?? null;
  return out;
}

/** The order as returned by create, read, list and update; cancel and detail add `state` (§2.4). */
function toOrder(row: DealRow, options: { state?: boolean; detail?: boolean } = {}): Json {
  const doc = parseJson(row.doc) as Json & { lines?: Json[] };
  const out: Json = { id: row.id, customerId: row.customer_id };
  if (options.detail) out.customerIdStr = String(row.customer_id);
  for (const f of ORDER_FIELDS) out[f] = doc[f] ?? null;
  out.orderNo = row.order_no;
  out.dateOrder = utc(row.date_order);
  if (options.state || options.detail) out.state = row.state;
  if (doc.cancelDate) out.cancelDate = doc.cancelDate;
  out.lines = (doc.lines ?? []).map((l) => lineOut(l, row.order_no, options.detail === true));
  out.dateCreated = utc(row.date_created);
  out.lastUpdated = utc(row.last_updated);
  return out;
}

type RefundRow = { id: bigint; order_no: string; customer_id: bigint; date_created: bigint; last_updated: bigint; doc: string };

function toRefund(row: RefundRow, withLines = true): Json {
  const doc = parseJson(row.doc) as Json & { refundLines?: Json[] };
  return {
    dateRefund: doc.dateRefund ?? null,
    dateCreated: utc(row.date_created),
    lastUpdated: utc(row.last_updated),
    orderNo: row.order_no,
    refundTotal: doc.refundTotal ?? null,
    customerId: row.customer_id,
    reason: doc.reason ?? null,
    refundLines: withLines ? (doc.refundLines ?? []) : [],
  };
}

function dealByOrderNo(db: SandboxDb, tenant: number, orderNo: string, sinceMs?: number): DealRow | undefined {
  return db
    .prepare(`SELECT ${DEAL_COLUMNS} FROM deals WHERE tenant_id = ? AND order_no = ? ${sinceMs === undefined ? "" : "AND date_order >= ?"}`)
    .safeIntegers(true)
    .get(...(sinceMs === undefined ? [tenant, orderNo] : [tenant, orderNo, sinceMs])) as DealRow | undefined;
}

const SORTS: Record<string, string> = { dateOrder: "date_order", id: "id", orderNo: "order_no", amountPaid: "amount_paid", lastUpdated: "last_updated", customerId: "customer_id" };

export const dealRoutes: ResourceRoutes = (app, ctx, publish) => {
  const db = ctx.db;
  const publishOrder = (tenantId: number, resource: "order" | "refund", action: "created" | "updated" | "cancelled" | "refunded" | "deleted", orderNo: string, customerId: bigint) =>
    publish(tenantId, resource, action, orderNo, { customerId: String(customerId) });
  const invalid = (c: ApiContext, problems: Problem[]) => sendError(c, "400", problems[0]!.message, problems);
  const windowStart = () => lastMonthStart(ctx.clock.nowMs());

  /** §4.2: customerId, or customerIdentities (an unknown identity set gets a new customer). */
  function resolveCustomer(tenant: number, body: Json, now: number): { id?: bigint; problem?: Problem; missing?: string; created?: boolean } {
    if (!isBlank(body.customerId)) {
      const id = parseId(body.customerId);
      if (id === null) return { problem: { fieldName: "customerId", message: "customerId must be a number" } };
      return customerStore(db).get(tenant, id) ? { id } : { missing: `customer ${id}` };
    }
    if (!Array.isArray(body.customerIdentities) || body.customerIdentities.length === 0) {
      return { problem: { fieldName: "customerId", message: "customerId or customerIdentities is required" } };
    }
    const wanted: IdentityInput[] = [];
    for (const [i, item] of body.customerIdentities.entries()) {
      const checked = validateIdentity(item, `customerIdentities[${i}].`);
      if (!checked.identity) return { problem: checked.problems[0] };
      wanted.push(checked.identity);
    }
    const identities = identityStore(db);
    for (const w of wanted) {
      const bound = identities.lookup(tenant, w.identityType, w.identityValue);
      if (bound) {
        for (const other of wanted) identities.bind(tenant, bound.customer_id, other, now);
        return { id: bound.customer_id };
      }
    }
    const id = customerStore(db).insert(tenant, {}, now);
    for (const w of wanted) identities.bind(tenant, id, w, now);
    return { id, created: true };
  }

  app.post(
    "/v1/deals",
    handleBody((c, body, tenant) => {
      const { doc, lines, problems } = validateOrder(body, false);
      if (problems.length > 0) return invalid(c, problems);
      const now = ctx.clock.nowMs();
      const outcome = db.transaction(() => {
        const customer = resolveCustomer(tenant, body, now);
        if (!customer.id) return customer;
        const orderNo = doc.orderNo as string;
        const stored = stringifyJson({ ...doc, lines: lines ?? [] });
        const dateOrder = parseBodyTime(doc.dateOrder)!;
        const existing = dealByOrderNo(db, tenant, orderNo);
        if (existing) {
          // §4.2: the stored order becomes the submitted one; the earlier data (and lines) is discarded.
          db.prepare("UPDATE deals SET customer_id = ?, date_order = ?, state = ?, amount_paid = ?, last_updated = ?, doc = ? WHERE id = ?").run(
            customer.id, dateOrder, STATE_PAID, doc.amountPaid as number, now, stored, existing.id,
          );
        } else {
          db.prepare(
            "INSERT INTO deals (id, tenant_id, customer_id, order_no, date_order, state, amount_paid, date_created, last_updated, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          ).run(nextId(db, "deal"), tenant, customer.id, orderNo, dateOrder, STATE_PAID, doc.amountPaid as number, now, now, stored);
        }
        return { ...customer, existed: Boolean(existing), row: dealByOrderNo(db, tenant, orderNo)! };
      })();
      if (outcome.problem) return invalid(c, [outcome.problem]);
      if (!("row" in outcome) || !outcome.row) return sendNotFound(c, outcome.missing ?? "customer");
      if (outcome.created) publish(tenant, "customer", "created", outcome.row.customer_id);
      publishOrder(tenant, "order", outcome.existed ? "updated" : "created", outcome.row.order_no, outcome.row.customer_id);
      return sendJson(c, toOrder(outcome.row));
    }),
  );

  app.get(
    "/v1/deals/:orderNo",
    handle((c, tenant) => {
      const row = dealByOrderNo(db, tenant, c.req.param("orderNo")!, windowStart());
      if (!row) return sendNotFound(c, `order ${c.req.param("orderNo")!}`);
      return sendJson(c, toOrder(row));
    }),
  );

  app.get(
    "/v1/deals",
    handle((c, tenant) => {
      const filter = new SqlFilter("tenant_id = ?", tenant).add("date_order >= ?", windowStart()).addIf("customer_id = ?", queryId(c, "customerId"));
      const { page, records, rows } = selectPage<DealRow>(c, db, { table: "deals", columns: DEAL_COLUMNS, filter, sorts: SORTS, fallback: "date_order" });
      return sendJson(c, { page, records, rows: rows.map((r) => toOrder(r)) });
    }),
  );

  app.put(
    "/v1/deals/:orderNo",
    handle(async (c, tenant) => {
      const row = dealByOrderNo(db, tenant, c.req.param("orderNo")!);
      if (!row) return sendNotFound(c, `order ${c.req.param("orderNo")!}`);
      const body = await readObject(c);
      if (!body) return sendBadBody(c);
      const { doc, lines, problems } = validateOrder(body, true);
      if (!isBlank(body.orderNo) && body.orderNo !== row.order_no) problems.push({ fieldName: "orderNo", message: "orderNo cannot be changed" });
      let customerId = row.customer_id;
      if (!isBlank(body.customerId)) {
        const id = parseId(body.customerId);
        if (id === null) problems.push({ fieldName: "customerId", message: "customerId must be a number" });
        else if (!customerStore(db).get(tenant, id)) return sendNotFound(c, `customer ${id}`);
        else customerId = id;
      }
      if (problems.length > 0) return invalid(c, problems);
      const merged: Json = { ...(parseJson(row.doc) as Json), ...doc };
      if (lines) merged.lines = lines;
      const dateOrder = parseBodyTime(merged.dateOrder) ?? Number(row.date_order);
      db.prepare("UPDATE deals SET customer_id = ?, date_order = ?, amount_paid = ?, last_updated = ?, doc = ? WHERE id = ?").run(
        customerId, dateOrder, (merged.amountPaid as number | undefined) ?? null, ctx.clock.nowMs(), stringifyJson(merged), row.id,
      );
      const updated = dealByOrderNo(db, tenant, row.order_no)!;
      publishOrder(tenant, "order", "updated", row.order_no, updated.customer_id);
      return sendJson(c, toOrder(updated));
    }),
  );

  app.delete(
    "/v1/deals/:orderNo",
    handle((c, tenant) => {
      const row = dealByOrderNo(db, tenant, c.req.param("orderNo")!);
      if (!row) return sendNotFound(c, `order ${c.req.param("orderNo")!}`);
      db.transaction(() => {
        db.prepare("DELETE FROM deals WHERE id = ?").run(row.id);
        db.prepare("DELETE FROM refunds WHERE tenant_id = ? AND order_no = ?").run(tenant, row.order_no);
      })();
      publishOrder(tenant, "order", "deleted", row.order_no, row.customer_id);
      return c.body(null, 204);
    }),
  );

  /** Order number from a service body: required string. */
  const orderNoOf = (body: Json) => (typeof body.orderNo === "string" && body.orderNo !== "" ? body.orderNo : undefined);

  app.post(
    "/v1/dealService/cancel",
    handleBody((c, body, tenant) => {
      const orderNo = orderNoOf(body);
      if (!orderNo) return sendFieldError(c, "orderNo", "orderNo is required");
      let cancelMs: number | undefined;
      if (!isBlank(body.cancelDate)) {
        const ms = parseBodyTime(body.cancelDate);
        if (ms === null) return sendFieldError(c, "cancelDate", "cancelDate must be a UTC time YYYY-MM-DDTHH:MM:SSZ");
        cancelMs = ms;
      }
      const row = dealByOrderNo(db, tenant, orderNo);
      if (!row) return sendNotFound(c, `order ${orderNo}`);
      // §3: cancelDate defaults to the order's last update time.
      const doc = { ...(parseJson(row.doc) as Json), cancelDate: utc(cancelMs ?? row.last_updated) };
      db.prepare("UPDATE deals SET state = ?, last_updated = ?, doc = ? WHERE id = ?").run(STATE_CANCELLED, ctx.clock.nowMs(), stringifyJson(doc), row.id);
      publishOrder(tenant, "order", "cancelled", orderNo, row.customer_id);
      return sendJson(c, toOrder(dealByOrderNo(db, tenant, orderNo)!, { state: true }));
    }),
  );

  app.post(
    "/v1/dealService/refund",
    handleBody((c, body, tenant) => {
      const orderNo = orderNoOf(body);
      const problems: Problem[] = [];
      if (!orderNo) problems.push({ fieldName: "orderNo", message: "orderNo is required" });
      if (body.state !== REFUND_FULL && body.state !== REFUND_PARTIAL) problems.push({ fieldName: "state", message: `state must be ${REFUND_FULL} or ${REFUND_PARTIAL}` });
      if (!isBlank(body.refundTotal) && !isNumber(body.refundTotal)) problems.push({ fieldName: "refundTotal", message: "refundTotal must be a number" });
      if (body.refundLines !== undefined && body.refundLines !== null && !Array.isArray(body.refundLines)) problems.push({ fieldName: "refundLines", message: "refundLines must be an array of {lineId}" });
      let refundMs = ctx.clock.nowMs();
      if (!isBlank(body.refundDate)) {
        const ms = parseBodyTime(body.refundDate);
        if (ms === null) problems.push({ fieldName: "refundDate", message: "refundDate must be a UTC time YYYY-MM-DDTHH:MM:SSZ" });
        else refundMs = ms;
      }
      if (!isBlank(body.reason) && typeof body.reason !== "string") problems.push({ fieldName: "reason", message: "reason must be a string" });
      if (problems.length > 0) return invalid(c, problems);
      const row = dealByOrderNo(db, tenant, orderNo!);
      if (!row) return sendNotFound(c, `order ${orderNo}`);
      const order = parseJson(row.doc) as Json & { lines?: Json[] };
      const orderLines = order.lines ?? [];
      const requested = ((body.refundLines as unknown[] | undefined) ?? []).map((l) => (isObject(l) ? String(l.lineId ?? "") : ""));
      const unknown = requested.filter((id) => !orderLines.some((l) => String(l.lineId) === id));
      if (unknown.length > 0) return invalid(c, [{ fieldName: "refundLines", message: `order ${orderNo} has no line ${unknown[0] || "(empty lineId)"}` }]);
      // A full refund without lines refunds every line.
      const chosen = requested.length > 0 ? orderLines.filter((l) => requested.includes(String(l.lineId))) : body.state === REFUND_FULL ? orderLines : [];
      const refundId = nextId(db, "refund");
      const refundLines = chosen.map((l) => ({
        customerId: row.customer_id,
        skuId: l.skuId ?? null,
        orderNo,
        productId: l.productId ?? null,
        qty: l.qty ?? null,
        category: l.category ?? null,
        priceUnit: l.priceUnit ?? null,
        productName: l.productName ?? null,
        lineId: l.lineId ?? null,
        refundId,
        priceSubTotal: l.priceSubTotal ?? null,
      }));
      const refundTotal = !isBlank(body.refundTotal)
        ? Number(body.refundTotal)
        : body.state === REFUND_FULL
          ? Number(order.amountPaid ?? 0)
          : sumDecimals(chosen.map((l) => l.priceSubPaid ?? l.priceSubTotal ?? 0));
      const now = ctx.clock.nowMs();
      const doc = { dateRefund: utc(refundMs), refundTotal, reason: (body.reason as string | undefined) ?? null, state: body.state, refundLines };
      db.prepare("INSERT INTO refunds (id, tenant_id, order_no, customer_id, date_created, last_updated, doc) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
        refundId, tenant, orderNo, row.customer_id, now, now, stringifyJson(doc),
      );
      publishOrder(tenant, "order", "refunded", orderNo!, row.customer_id);
      publishOrder(tenant, "refund", "created", orderNo!, row.customer_id);
      const stored = db.prepare("SELECT id, order_no, customer_id, date_created, last_updated, doc FROM refunds WHERE id = ?").safeIntegers(true).get(refundId) as RefundRow;
      return sendJson(c, toRefund(stored));
    }),
  );

  app.post(
    "/v1/dealService/deleteRefund",
    handleBody((c, body, tenant) => {
      const orderNo = orderNoOf(body);
      if (!orderNo) return sendFieldError(c, "orderNo", "orderNo is required");
      const refunds = db
        .prepare("SELECT id, order_no, customer_id, date_created, last_updated, doc FROM refunds WHERE tenant_id = ? AND order_no = ? ORDER BY id DESC")
        .safeIntegers(true)
        .all(tenant, orderNo) as RefundRow[];
      if (refunds.length === 0) return sendNotFound(c, `refund of order ${orderNo}`);
      db.prepare("DELETE FROM refunds WHERE tenant_id = ? AND order_no = ?").run(tenant, orderNo);
      publishOrder(tenant, "refund", "deleted", orderNo, refunds[0]!.customer_id);
      return sendJson(c, toRefund(refunds[0]!, false));
    }),
  );

  app.get(
    "/v1/dealService/getDealByOrderNo",
    handle((c, tenant) => {
      const orderNo = c.req.query("orderNo");
      if (!orderNo) return sendFieldError(c, "orderNo", "orderNo is required");
      const row = dealByOrderNo(db, tenant, orderNo, windowStart());
      if (!row) return sendNotFound(c, `order ${orderNo}`);
      return sendJson(c, toOrder(row, { detail: true }));
    }),
  );
};
