import type { SandboxDb } from "../db";
import { sendJson } from "../http";
import { handle, handleBody, isBlank, queryId, sendError, sendFieldError, sendNotFound, type ApiContext, type ResourceRoutes } from "./common";
import { customerStore, type CustomerDoc } from "./customer-store";
import { eventStore } from "./events";
import { identityStore, validateIdentity } from "./identities";

/** Event type ids the sandbox uses for the unbinding events (§4.1, §6; the real ids are not shown). */
export const FOLLOW_EVENT = "messenger_follow";
export const UNBIND_EVENT = "messenger_unbind";

/**
 * §4.1 / §3 merge: the source is deleted; its identities, md5 identities, events, orders, refunds,
 * tags and list memberships end on the target. Blank fields of the target take the source's value.
 */
export function mergeCustomers(db: SandboxDb, tenant: number, fromId: bigint, toId: bigint, now: number): void {
  const customers = customerStore(db);
  const from = customers.get(tenant, fromId)!;
  const to = customers.get(tenant, toId)!;
  const fromDoc = customers.doc(from);
  const merged: CustomerDoc = { ...customers.doc(to) };
  for (const [k, v] of Object.entries(fromDoc)) {
    const key = k as keyof CustomerDoc;
    if (isBlank(merged[key]) && !isBlank(v)) merged[key] = v;
  }
  const move = (sql: string) => db.prepare(sql).run(toId, fromId);
  move("UPDATE customer_identities SET customer_id = ? WHERE customer_id = ?");
  move("UPDATE customer_md5_identities SET customer_id = ? WHERE customer_id = ?");
  // An event the target already holds under the same externalId stays once (§2.3 dedupe).
  move("UPDATE OR IGNORE customer_events SET customer_id = ? WHERE customer_id = ?");
  db.prepare("DELETE FROM customer_events WHERE customer_id = ?").run(fromId);
  move("UPDATE deals SET customer_id = ? WHERE customer_id = ?");
  move("UPDATE refunds SET customer_id = ? WHERE customer_id = ?");
  move("UPDATE OR IGNORE customer_tags SET customer_id = ? WHERE customer_id = ?");
  db.prepare("DELETE FROM customer_tags WHERE customer_id = ?").run(fromId);
  move("UPDATE OR IGNORE list_members SET customer_id = ? WHERE customer_id = ?");
  db.prepare("DELETE FROM list_members WHERE customer_id = ?").run(fromId);
  customers.update(tenant, toId, merged, now);
  customers.delete(tenant, fromId);
}

export const mergeRoutes: ResourceRoutes = (app, ctx, publish) => {
  const db = ctx.db;
  const customers = customerStore(db);
  const identities = identityStore(db);
  const publishMerge = (tenantId: number, fromId: bigint, toId: bigint) => {
    publish(tenantId, "customer", "merged", toId, { fromId: String(fromId), toId: String(toId) });
    publish(tenantId, "customer", "deleted", fromId, { mergedInto: String(toId) });
  };
  const merge = (c: ApiContext, tenant: number, fromId: bigint, toId: bigint) => {
    if (fromId === toId) return sendError(c, "400", "a customer cannot be merged into itself");
    if (!customers.get(tenant, fromId)) return sendNotFound(c, `customer ${fromId}`);
    if (!customers.get(tenant, toId)) return sendNotFound(c, `customer ${toId}`);
    db.transaction(() => mergeCustomers(db, tenant, fromId, toId, ctx.clock.nowMs()))();
    publishMerge(tenant, fromId, toId);
    return sendJson(c, { data: { customerId: toId } });
  };

  app.post(
    "/v1/customerService/mergeCustomerById",
    handle((c, tenant) => {
      const fromId = queryId(c, "fromId");
      const toId = queryId(c, "toId");
      if (fromId === undefined) return sendFieldError(c, "fromId", "fromId is required");
      if (toId === undefined) return sendFieldError(c, "toId", "toId is required");
      return merge(c, tenant, fromId, toId);
    }),
  );

  app.post(
    "/v1/customerService/mergeCustomerByIdentities",
    handleBody((c, body, tenant) => {
      const from = validateIdentity(body.from, "from.");
      const to = validateIdentity(body.to, "to.");
      const problems = [...from.problems, ...to.problems];
      if (problems.length > 0 || !from.identity || !to.identity) return sendError(c, "400", problems[0]!.message, problems);
      const source = identities.lookup(tenant, from.identity.identityType, from.identity.identityValue);
      if (!source) return sendNotFound(c, `customer of identity ${from.identity.identityType}:${from.identity.identityValue}`);
      const target = identities.lookup(tenant, to.identity.identityType, to.identity.identityValue);
      if (!target) return sendNotFound(c, `customer of identity ${to.identity.identityType}:${to.identity.identityValue}`);
      return merge(c, tenant, source.customer_id, target.customer_id);
    }),
  );

  // §4.1 messenger unbinding: a new customer with the union id and its open ids, one follow and one system event.
  app.post(
    "/v1/customers/messenger/unbinding",
    handleBody((c, body, tenant) => {
      const openid = typeof body.openid === "string" && body.openid !== "" ? body.openid : undefined;
      let unionid = typeof body.unionid === "string" && body.unionid !== "" ? body.unionid : undefined;
      if (!openid && !unionid) return sendFieldError(c, "openid", "openid or unionid is required");
      const notFound = () => sendError(c, "400005", "openid and unionid not found");
      if (!unionid) {
        // With only an open id, the union id recorded for it: the union id identity of its customer.
        const open = identities.lookup(tenant, "messenger", openid!);
        if (!open) return notFound();
        const union = db
          .prepare("SELECT value FROM customer_identities WHERE tenant_id = ? AND customer_id = ? AND type = 'messenger-unionid' ORDER BY id LIMIT 1")
          .safeIntegers(true)
          .get(tenant, open.customer_id) as { value: string } | undefined;
        if (!union) return notFound();
        unionid = union.value;
      }
      const unionIdentity = identities.lookup(tenant, "messenger-unionid", unionid);
      if (!unionIdentity) return notFound();
      const oldId = unionIdentity.customer_id;
      const now = ctx.clock.nowMs();
      const result = db.transaction(() => {
        const old = customers.doc(customers.get(tenant, oldId)!);
        const doc: CustomerDoc = { source: "messenger" };
        if (!isBlank(old.nickName)) doc.nickName = old.nickName;
        if (!isBlank(old.img)) doc.img = old.img;
        const newId = customers.insert(tenant, doc, now);
        const openIds = db
          .prepare("SELECT id, value FROM customer_identities WHERE tenant_id = ? AND customer_id = ? AND type = 'messenger' ORDER BY id")
          .safeIntegers(true)
          .all(tenant, oldId) as Array<{ id: bigint; value: string }>;
        const moveIdentity = db.prepare("UPDATE customer_identities SET customer_id = ?, last_updated = ? WHERE id = ?");
        moveIdentity.run(newId, now, unionIdentity.id);
        for (const o of openIds) moveIdentity.run(newId, now, o.id);
        const events = eventStore(db);
        const base = { date: now, score: 0, doc: { source: "messenger" } };
        const follow = events.record(tenant, newId, { ...base, event: FOLLOW_EVENT, externalId: `unbind-follow-${newId}` }, now);
        const system = events.record(tenant, newId, { ...base, event: UNBIND_EVENT, externalId: `unbind-${newId}` }, now);
        return { newId, identities: [{ type: "messenger-unionid", value: unionid }, ...openIds.map((o) => ({ type: "messenger", value: o.value }))], events: [follow.row.id, system.row.id] };
      })();
      publish(tenant, "customer", "created", result.newId, { unboundFrom: String(oldId) });
      publish(tenant, "customer", "updated", oldId);
      for (const id of result.events) publish(tenant, "event", "created", id, { customerId: String(result.newId) });
      return sendJson(c, { customerId: result.newId, identities: result.identities });
    }),
  );
};

