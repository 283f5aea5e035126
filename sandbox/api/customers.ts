import { readJson, sendJson, sendText } from "../http";
import { handle, handleBody, isBlank, isObject, parseId, parseIdList, queryBool, readObject, sendBadBody, sendError, sendFieldError, sendNotFound, utc, type ApiContext, type ResourceRoutes } from "./common";
import { countCustomers, customerFilter, customerPaging, findCustomers } from "./customer-query";
import { customerStore, patchCustomer, selectFields, toCustomer, validateCustomerFields } from "./customer-store";
import { identityOut, identityStore, validateIdentity, type IdentityInput } from "./identities";
import { queryPage } from "./paging";
import { customerStatistics } from "./statistics";

function selectList(c: ApiContext): string[] | undefined {
  const raw = c.req.query("select");
  if (raw === undefined || raw.trim() === "") return undefined;
  return raw.split(",").map((s) => s.trim()).filter(Boolean);
}

export const customerRoutes: ResourceRoutes = (app, ctx, publish) => {
  const db = ctx.db;
  const customers = customerStore(db);
  const identities = identityStore(db);
  const findBy = (tenant: number, column: "mobile" | "email", value: unknown) =>
    isBlank(value)
      ? undefined
      : (db.prepare(`SELECT id FROM customers WHERE tenant_id = ? AND ${column} = ? ORDER BY id LIMIT 1`).safeIntegers(true).get(tenant, String(value)) as
          | { id: bigint }
          | undefined);

  // §4.1 create with identities: the four rules, nullAble / mergeByEmail / mergeByMobile.
  app.post(
    "/v1/customerandidentities",
    handle(async (c, tenant) => {
      const nullAble = queryBool(c, "nullAble", false);
      const mergeByEmail = queryBool(c, "mergeByEmail", true);
      const mergeByMobile = queryBool(c, "mergeByMobile", true);
      const json = await readJson(c);
      const body = json.ok && isObject(json.value) ? json.value : {};
      // §7.3 plain-text HTTP 400s, in the order the platform checks them.
      if (body.customer === undefined || body.customer === null) return sendText(c, "No customer field found");
      if (body.customerIdentities === undefined || body.customerIdentities === null) return sendText(c, "No customerIdentities field found");
      if (!Array.isArray(body.customerIdentities)) return sendText(c, "customerIdentities must be an array of values in customerIdentity");
      if (!isObject(body.customer)) return sendError(c, "400001", "customer must be an object", [{ fieldName: "customer", message: "customer must be an object" }]);
      const input = body.customer;
      const problems = validateCustomerFields(input).map((p) => ({ fieldName: p.field, message: p.message }));
      const wanted: IdentityInput[] = [];
      body.customerIdentities.forEach((item, i) => {
        const checked = validateIdentity(item, `customerIdentities[${i}].`);
        problems.push(...checked.problems);
        if (checked.identity) wanted.push(checked.identity);
      });
      if (problems.length > 0) return sendError(c, "400001", problems[0]!.message, problems);
      const now = ctx.clock.nowMs();
      const result = db.transaction(() => {
        // Rule 1: an identity already bound decides the customer.
        let targetId: bigint | undefined;
        for (const identity of wanted) {
          const bound = identities.lookup(tenant, identity.identityType, identity.identityValue);
          if (bound) {
            targetId = bound.customer_id;
            break;
          }
        }
        // Rule 2: otherwise email, then mobile, when merging by them is on.
        if (targetId === undefined && mergeByEmail) targetId = findBy(tenant, "email", input.email)?.id;
        if (targetId === undefined && mergeByMobile) targetId = findBy(tenant, "mobile", input.mobile)?.id;
        let created = false;
        if (targetId !== undefined) {
          const row = customers.get(tenant, targetId)!;
          // Rule 4: fields are cleared only when nullAble.
          customers.update(tenant, targetId, patchCustomer(customers.doc(row), input, { nullAble }), now);
        } else {
          // Rule 3: a new customer.
          targetId = customers.insert(tenant, patchCustomer({}, input, { nullAble: false }), now);
          created = true;
        }
        for (const identity of wanted) identities.bind(tenant, targetId, identity, now);
        return { id: targetId, created };
      })();
      publish(tenant, "customer", result.created ? "created" : "updated", result.id);
      return sendJson(c, toCustomer(customers.get(tenant, result.id)!));
    }),
  );

  // §4.1 create or update by mobile / email: 201 new, 200 existing.
  app.post(
    "/v1/customers",
    handle(async (c, tenant) => {
      const body = await readObject(c);
      if (!body || Object.keys(body).length === 0) return sendText(c, "Request data need at least one field");
      const problems = validateCustomerFields(body);
      if (body.createMethod !== undefined && body.createMethod !== null && typeof body.createMethod !== "string") {
        problems.push({ field: "createMethod", message: "createMethod must be a string" });
      }
      // §7.1: here each fieldErrors item is an object from field name to message.
      if (problems.length > 0) return sendError(c, "401011", problems[0]!.message, problems.map((p) => ({ [p.field]: p.message })));
      const now = ctx.clock.nowMs();
      const result = db.transaction(() => {
        const existing = findBy(tenant, "mobile", body.mobile) ?? findBy(tenant, "email", body.email);
        if (existing) {
          const row = customers.get(tenant, existing.id)!;
          customers.update(tenant, existing.id, patchCustomer(customers.doc(row), body, { nullAble: false }), now);
          return { id: existing.id, created: false };
        }
        return { id: customers.insert(tenant, patchCustomer({}, body, { nullAble: false }), now), created: true };
      })();
      publish(tenant, "customer", result.created ? "created" : "updated", result.id);
      return sendJson(c, toCustomer(customers.get(tenant, result.id)!), result.created ? 201 : 200);
    }),
  );

  // §4.1 update: returns the customer as it was before.
  app.put(
    "/v1/customers/:id",
    handle(async (c, tenant) => {
      const forceUpdate = queryBool(c, "forceUpdate", false);
      const nullAble = queryBool(c, "nullAble", false);
      const id = parseId(c.req.param("id"));
      const row = id === null ? undefined : customers.get(tenant, id);
      if (!row || id === null) return sendNotFound(c, `customer ${c.req.param("id")}`);
      const body = await readObject(c);
      if (!body) return sendBadBody(c);
      const problems = validateCustomerFields(body);
      if (problems.length > 0) return sendError(c, "400001", problems[0]!.message, problems.map((p) => ({ fieldName: p.field, message: p.message })));
      const before = toCustomer(row);
      customers.update(tenant, id, patchCustomer(customers.doc(row), body, { nullAble, forceUpdate, guardNonModifiable: true }), ctx.clock.nowMs());
      publish(tenant, "customer", "updated", id);
      return sendJson(c, before);
    }),
  );

  app.delete(
    "/v1/customers/:id",
    handle((c, tenant) => {
      const id = parseId(c.req.param("id"));
      const deleted =
        id !== null &&
        db.transaction(() => {
          if (!customers.delete(tenant, id)) return false;
          removeCustomerData(id);
          return true;
        })();
      if (!deleted || id === null) return sendNotFound(c, `customer ${c.req.param("id")}`);
      publish(tenant, "customer", "deleted", id);
      return c.body(null, 204);
    }),
  );

  /** A deleted customer takes its identities, tags and memberships along (events and orders stay as history). */
  function removeCustomerData(id: bigint) {
    db.prepare("DELETE FROM customer_identities WHERE customer_id = ?").run(id);
    db.prepare("DELETE FROM customer_md5_identities WHERE customer_id = ?").run(id);
    db.prepare("DELETE FROM customer_tags WHERE customer_id = ?").run(id);
    db.prepare("DELETE FROM list_members WHERE customer_id = ?").run(id);
  }

  // Before /:id, so that "count" is not read as an id.
  app.get(
    "/v1/customers/count",
    handle((c, tenant) => sendJson(c, countCustomers(db, tenant, customerFilter(c, tenant, false)))),
  );

  app.get(
    "/v1/customers/:id",
    handle((c, tenant) => {
      const id = parseId(c.req.param("id"));
      const row = id === null ? undefined : customers.get(tenant, id);
      if (!row) return sendNotFound(c, `customer ${c.req.param("id")}`);
      return sendJson(c, selectFields(toCustomer(row), selectList(c)));
    }),
  );

  app.get(
    "/v1/customers",
    handle((c, tenant) => {
      const filter = customerFilter(c, tenant, true);
      const paging = customerPaging(c);
      const select = selectList(c);
      const rows = findCustomers(db, tenant, filter, paging).map((r) => selectFields(toCustomer(r), select));
      return sendJson(c, { rows });
    }),
  );

  // §4.1 add an identity; returns the same four fields.
  app.post(
    "/v1/customeridentities",
    handleBody((c, body, tenant) => {
      const customerId = parseId(body.customerId);
      const checked = validateIdentity(body, "");
      const problems = [...(customerId === null ? [{ fieldName: "customerId", message: "customerId is required and must be a number" }] : []), ...checked.problems];
      if (problems.length > 0 || !checked.identity || customerId === null) return sendError(c, "400001", problems[0]!.message, problems);
      if (!customers.get(tenant, customerId)) return sendNotFound(c, `customer ${customerId}`);
      const now = ctx.clock.nowMs();
      const outcome = db.transaction(() => identities.bind(tenant, customerId, checked.identity!, now))();
      if (outcome === "taken") {
        const owner = identities.lookup(tenant, checked.identity.identityType, checked.identity.identityValue)!;
        return sendError(c, "409", `identity ${checked.identity.identityType}:${checked.identity.identityValue} is already bound to customer ${owner.customer_id}`);
      }
      if (outcome === "bound") publish(tenant, "customer", "updated", customerId, { identityAdded: checked.identity.identityType });
      return sendJson(c, { customerId, ...checked.identity });
    }),
  );

  app.get(
    "/v1/customeridentities",
    handle((c, tenant) => {
      const rawIds = c.req.query("customerIds");
      const columns = "customer_id, type, value, name";
      if (rawIds !== undefined && rawIds !== "") {
        const ids = parseIdList(rawIds);
        if (ids === null || ids.length === 0) {
          return sendError(c, "400001", "customer id should be a number", [{ fieldName: "customerIds", message: "customer id should be a number" }]);
        }
        const rows = db
          .prepare(`SELECT ${columns} FROM customer_identities WHERE tenant_id = ? AND customer_id IN (${ids.map(() => "?").join(",")}) ORDER BY customer_id, id`)
          .safeIntegers(true)
          .all(tenant, ...ids.slice(0, 1000)) as Array<{ customer_id: bigint; type: string; value: string; name: string | null }>;
        return sendJson(c, rows.map(identityOut));
      }
      const type = c.req.query("identityType");
      const value = c.req.query("identityValue");
      if (!type || !value) return sendFieldError(c, type ? "identityValue" : "identityType", "give customerIds, or identityType together with identityValue", "400001");
      const rows = db
        .prepare(`SELECT ${columns} FROM customer_identities WHERE tenant_id = ? AND type = ? AND value = ?`)
        .safeIntegers(true)
        .all(tenant, type, value) as Array<{ customer_id: bigint; type: string; value: string; name: string | null }>;
      return sendJson(c, rows.map(identityOut));
    }),
  );

  // §4.1 / §2.2: md5 identities live apart from ordinary ones.
  app.get(
    "/v1/customerService/getCustomerIdentityByMd5",
    handle((c, tenant) => {
      const md5type = c.req.query("md5type");
      const md5value = c.req.query("md5value");
      if (md5type !== "common" && md5type !== "marketplace") return sendFieldError(c, "md5type", "md5type is required: common or marketplace");
      if (!md5value) return sendFieldError(c, "md5value", "md5value is required");
      const row = db
        .prepare("SELECT id, customer_id, md5type, type, value, md5value, date_created, last_updated FROM customer_md5_identities WHERE tenant_id = ? AND md5type = ? AND md5value = ?")
        .safeIntegers(true)
        .get(tenant, md5type, md5value.toLowerCase()) as
        | { id: bigint; customer_id: bigint; md5type: string; type: string; value: string | null; md5value: string; date_created: bigint; last_updated: bigint }
        | undefined;
      if (!row) return sendError(c, "409200", "Not found");
      return sendJson(c, {
        id: row.id,
        dateCreated: utc(row.date_created),
        lastUpdated: utc(row.last_updated),
        md5type: row.md5type,
        value: row.value,
        type: row.type,
        customerId: row.customer_id,
        customerIdStr: String(row.customer_id),
        md5value: row.md5value,
      });
    }),
  );

  app.get(
    "/v1/customerStatistics",
    handle((c, tenant) => {
      const one = c.req.query("customerId");
      const many = c.req.query("customerIds");
      if (!one && !many) return sendFieldError(c, "customerId", "customerId or customerIds is required");
      const ids = parseIdList([one, many].filter(Boolean).join(","));
      if (ids === null) return sendFieldError(c, one ? "customerId" : "customerIds", "customer id should be a number");
      const unique = [...new Set(ids)];
      const { rows, page } = queryPage(c);
      const existing = unique.filter((id) => customers.get(tenant, id));
      const items = existing.slice((page - 1) * rows, page * rows).map((id) => customerStatistics(db, tenant, id, ctx.clock.nowMs()));
      const total = Math.ceil(existing.length / rows);
      return sendJson(c, { items, meta: { records: existing.length, total, hasNext: page < total } });
    }),
  );
};

