import { LIMITS } from "@/lib/platform/limits";
import { sendJson } from "../http";
import { nextId } from "../ids";
import { handle, handleBody, isObject, parseId, queryCustomerIds, queryId, queryInt, queryRequiredId, queryTime, queryTimeEnd, sendFieldError, sendNotFound, tooLong, utc, type ApiContext, type Json, type ResourceRoutes } from "./common";
import { customerStore } from "./customer-store";
import { queryOrder, SqlFilter } from "./paging";
import { deleteRoute, pageRoute } from "./table-routes";

type ListRow = { id: bigint; name: string; date_created: bigint; last_updated: bigint };
type MemberRow = { id: bigint; list_id: bigint; customer_id: bigint; date_created: bigint; last_updated: bigint };

const toList = (r: ListRow): Json => ({ id: r.id, name: r.name, dateCreated: utc(r.date_created), lastUpdated: utc(r.last_updated) });
const toMember = (r: MemberRow): Json => ({ id: r.id, listId: r.list_id, customerId: r.customer_id, dateCreated: utc(r.date_created), lastUpdated: utc(r.last_updated) });

/** §8: list-member query `rows` default 20, at most 10000. */
export const MAX_MEMBER_ROWS = LIMITS.listMemberRows;
const LIST_COLUMNS = "id, name, date_created, last_updated";
const MEMBER_COLUMNS = "id, list_id, customer_id, date_created, last_updated";
const LIST_SORTS: Record<string, string> = { id: "id", name: "name", dateCreated: "date_created", lastUpdated: "last_updated" };
const MEMBER_SORTS: Record<string, string> = { id: "id", listId: "list_id", customerId: "customer_id" };

export const listRoutes: ResourceRoutes = (app, ctx, publish) => {
  const db = ctx.db;
  const getList = (tenant: number, id: bigint | null) =>
    id === null ? undefined : (db.prepare(`SELECT ${LIST_COLUMNS} FROM lists WHERE id = ? AND tenant_id = ?`).safeIntegers(true).get(id, tenant) as ListRow | undefined);
  const getMember = (listId: bigint, customerId: bigint) =>
    db.prepare(`SELECT ${MEMBER_COLUMNS} FROM list_members WHERE list_id = ? AND customer_id = ?`).safeIntegers(true).get(listId, customerId) as MemberRow | undefined;

  /** Adds a customer to a list; an existing membership is returned as it is. */
  function addMember(tenant: number, listId: bigint, customerId: bigint, now: number): { row: MemberRow; added: boolean } {
    const existing = getMember(listId, customerId);
    if (existing) return { row: existing, added: false };
    const id = nextId(db, "listMember");
    db.prepare("INSERT INTO list_members (id, tenant_id, list_id, customer_id, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)").run(id, tenant, listId, customerId, now, now);
    return { row: { id, list_id: listId, customer_id: customerId, date_created: BigInt(now), last_updated: BigInt(now) }, added: true };
  }

  /** Checks one `{customerId, listId}` pair; returns an error response or the parsed ids. */
  function checkPair(c: ApiContext, tenant: number, pair: unknown, prefix: string): Response | { listId: bigint; customerId: bigint } {
    if (!isObject(pair)) return sendFieldError(c, prefix || "data", `${prefix || "data"} must be an object {customerId, listId}`);
    const customerId = parseId(pair.customerId);
    const listId = parseId(pair.listId);
    if (customerId === null) return sendFieldError(c, `${prefix}customerId`, "customerId is required and must be a number");
    if (listId === null) return sendFieldError(c, `${prefix}listId`, "listId is required and must be a number");
    if (!getList(tenant, listId)) return sendNotFound(c, `list ${listId}`);
    if (!customerStore(db).get(tenant, customerId)) return sendNotFound(c, `customer ${customerId}`);
    return { listId, customerId };
  }

  app.post(
    "/v1/lists",
    handleBody((c, body, tenant) => {
      if (typeof body.name !== "string" || body.name.trim() === "") return sendFieldError(c, "name", "name is required");
      if (tooLong(body.name, LIMITS.listName)) return sendFieldError(c, "name", `name must be at most ${LIMITS.listName} characters`);
      const now = ctx.clock.nowMs();
      const id = nextId(db, "list");
      // §4.4: names are not checked for uniqueness.
      db.prepare("INSERT INTO lists (id, tenant_id, name, date_created, last_updated) VALUES (?, ?, ?, ?, ?)").run(id, tenant, body.name, now, now);
      publish(tenant, "list", "created", id);
      return sendJson(c, toList(getList(tenant, id)!));
    }),
  );

  // The members go with the list; the customers stay (§4.4).
  const listDeleted = (tenant: number, id: bigint) => publish(tenant, "list", "deleted", id);
  app.delete("/v1/lists/:id", deleteRoute(db, "list", getList, ["DELETE FROM list_members WHERE list_id = ?", "DELETE FROM lists WHERE id = ?"], listDeleted));
  app.get("/v1/lists", pageRoute(db, { table: "lists", columns: LIST_COLUMNS, sorts: LIST_SORTS }, toList));

  app.post(
    "/v1/listMembers",
    handleBody((c, body, tenant) => {
      const pair = checkPair(c, tenant, body.data, "data.");
      if (pair instanceof Response) return pair;
      const { row, added } = addMember(tenant, pair.listId, pair.customerId, ctx.clock.nowMs());
      if (added) publish(tenant, "listMember", "added", row.id, { listId: String(pair.listId), customerId: String(pair.customerId) });
      return sendJson(c, { data: toMember(row) });
    }),
  );

  app.delete(
    "/v1/listMembers/:id",
    handle((c, tenant) => {
      const id = parseId(c.req.param("id"));
      const row = id === null ? undefined : (db.prepare(`SELECT ${MEMBER_COLUMNS} FROM list_members WHERE id = ? AND tenant_id = ?`).safeIntegers(true).get(id, tenant) as MemberRow | undefined);
      if (!row) return sendNotFound(c, `list member ${c.req.param("id")}`);
      db.prepare("DELETE FROM list_members WHERE id = ?").run(row.id);
      publish(tenant, "listMember", "removed", row.id, { listId: String(row.list_id), customerId: String(row.customer_id) });
      return c.body(null, 204);
    }),
  );

  app.post(
    "/v1/listservice/removeFromList",
    handle((c, tenant) => {
      const ids = queryCustomerIds(c, "customerIds");
      const listId = queryRequiredId(c, "listId");
      if (!getList(tenant, listId)) return sendNotFound(c, `list ${listId}`);
      const removed = db.transaction(() =>
        ids.flatMap((customerId) => {
          const row = getMember(listId, customerId);
          if (!row) return [];
          db.prepare("DELETE FROM list_members WHERE id = ?").run(row.id);
          return [row];
        }),
      )();
      for (const row of removed) publish(tenant, "listMember", "removed", row.id, { listId: String(listId), customerId: String(row.customer_id) });
      return sendJson(c, { success: true });
    }),
  );

  app.post(
    "/v1/listMembersBatch",
    handleBody((c, body, tenant) => {
      if (!Array.isArray(body.items) || body.items.length === 0) return sendFieldError(c, "items", "items is required: an array of {customerId, listId}");
      if (body.items.length > MAX_MEMBER_ROWS) return sendFieldError(c, "items", `items may hold at most ${MAX_MEMBER_ROWS} members`);
      const pairs: Array<{ listId: bigint; customerId: bigint }> = [];
      for (const [i, item] of body.items.entries()) {
        const pair = checkPair(c, tenant, item, `items[${i}].`);
        if (pair instanceof Response) return pair;
        pairs.push(pair);
      }
      const now = ctx.clock.nowMs();
      const results = db.transaction(() => pairs.map((p) => addMember(tenant, p.listId, p.customerId, now)))();
      for (const r of results) if (r.added) publish(tenant, "listMember", "added", r.row.id, { listId: String(r.row.list_id), customerId: String(r.row.customer_id) });
      return sendJson(c, { items: results.map((r) => toMember(r.row)) });
    }),
  );

  app.get(
    "/v1/listMembers",
    handle((c, tenant) => {
      const filter = new SqlFilter("tenant_id = ?", tenant).addIf("list_id = ?", queryId(c, "listId")).addIf("customer_id = ?", queryId(c, "customerId"));
      const rows = queryInt(c, "rows", 20, 1, MAX_MEMBER_ROWS);
      const order = queryOrder(c, MEMBER_SORTS, "customer_id");
      // §4.4: a lower bound of the sidx field in ascending order, an upper bound in descending.
      filter.addIf(`${order.column} ${order.sord === "asc" ? ">" : "<"} ?`, queryId(c, "sinceId"));
      const found = db
        .prepare(`SELECT ${MEMBER_COLUMNS} FROM list_members WHERE ${filter.sql} ORDER BY ${order.sql} LIMIT ?`)
        .safeIntegers(true)
        .all(...filter.params, rows) as MemberRow[];
      return sendJson(c, { items: found.map(toMember) });
    }),
  );

  app.get(
    "/v1/listservice/memberCount",
    handle((c, tenant) => {
      const listId = queryRequiredId(c, "listId");
      const filter = new SqlFilter("list_id = ?", listId).addIf("date_created >= ?", queryTime(c, "joinListDateSince")).addIf("date_created <= ?", queryTimeEnd(c, "joinListDateTo"));
      if (!getList(tenant, listId)) return sendNotFound(c, `list ${listId}`);
      const n = (db.prepare(`SELECT count(*) AS n FROM list_members WHERE ${filter.sql}`).get(...filter.params) as { n: number }).n;
      return sendJson(c, n);
    }),
  );

};
