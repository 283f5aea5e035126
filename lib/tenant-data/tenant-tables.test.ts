import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { appendAuditEntries, listAuditEntries } from "@/lib/audit/audit-store";
import { setCustomerTags, upsertCustomers } from "@/lib/search/index-store";
import { ensureTenant } from "@/lib/search/tenant-state";
import type { Store } from "@/lib/store";
import { saveInstallation, wasDisconnected } from "@/lib/store/installations";
import { describeEachDialect } from "@/lib/store/testing";
import type { InboxDelivery } from "@/lib/store/webhook-inbox";
import { createTopicRegistry } from "@/lib/webhooks/topics";
import { disconnectTenant, installationEnd, markInstallationEnded, removeTenantData, subscribeUninstall, sweepEndedInstallations } from "./disconnect";
import { tenantHoldings, tenantTables } from "./tenant-tables";

const A = { openAppId: "oa-a", tenantId: "100" };
const B = { openAppId: "oa-a", tenantId: "200" };

/** Every column of every table of the store, read from its catalogue (as a table added later will be). */
async function columnsOf(store: Store, schema: string | undefined): Promise<Map<string, Array<{ name: string; type: string; nullable: boolean; auto: boolean; default: boolean }>>> {
  const tables = await store.db.introspection.getTables();
  const out = new Map<string, Array<{ name: string; type: string; nullable: boolean; auto: boolean; default: boolean }>>();
  for (const table of tables) {
    if (table.isView || (schema && table.schema !== schema)) continue;
    out.set(table.name, table.columns.map((c) => ({ name: c.name, type: c.dataType.toLowerCase(), nullable: c.isNullable, auto: c.isAutoIncrementing, default: c.hasDefaultValue })));
  }
  return out;
}

/**
 * One row of the tenant in EVERY table that holds tenant rows, made from the columns alone: a
 * table another feature adds later is seeded (and then checked) without a change here.
 */
async function seedEveryTable(store: Store, schema: string | undefined, key: typeof A, tenant: number): Promise<void> {
  const columns = await columnsOf(store, schema);
  for (const table of await tenantTables(store)) {
    const row: Record<string, unknown> = {};
    for (const column of columns.get(table.name) ?? []) {
      if (column.auto || (column.default && column.name === "id" && /serial|int/.test(column.type))) continue;
      if (/^_|array|\[\]/i.test(column.type)) continue; // nullable derived arrays (the index's name pairs)
      if (column.name === "open_app_id") row[column.name] = key.openAppId;
      else if (column.name === "tenant_id") row[column.name] = key.tenantId;
      else if (column.name === "tenant") row[column.name] = tenant;
      else if (/int|serial|numeric|real|double|float|decimal/.test(column.type)) row[column.name] = Math.floor(Math.random() * 1e9);
      else if (/bool/.test(column.type)) row[column.name] = false;
      else row[column.name] = randomBytes(4).toString("hex");
    }
    await sql`INSERT INTO ${sql.id(table.name)} (${sql.join(Object.keys(row).map((c) => sql.id(c)))}) VALUES (${sql.join(Object.values(row))}) ON CONFLICT DO NOTHING`.execute(store.db);
  }
}

const tokens = { accessToken: "at", refreshToken: "rt", accessTokenExpiresAt: Date.now() + 3_600_000 };

async function seedTenant(store: Store, schema: string | undefined, key: typeof A): Promise<void> {
  await saveInstallation(store, { ...key, installedBy: "admin1", installedByName: "Ada", tokens });
  const state = await ensureTenant(store, key);
  await upsertCustomers(store, state.tenant, [{ id: "9007199254740993", name: "Li Na", displayName: "Li Na" }]);
  await setCustomerTags(store, state.tenant, new Map([["9007199254740993", ["vip"]]]));
  await appendAuditEntries(store, [{ key, at: 1, actorId: "admin1", actorName: "Ada", operation: "customers.update", method: "PUT", outcome: "done", status: 200, reason: null, requestId: "r1", targets: [{ kind: "customer", id: "9007199254740993" }], changes: null }]);
  await seedEveryTable(store, schema, key, state.tenant);
}

const total = (holdings: Array<{ rows: number }>) => holdings.reduce((sum, h) => sum + h.rows, 0);

describeEachDialect("a tenant's data", (t) => {
  it("is found in every table of the schema that holds tenant rows", async () => {
    const names = (await tenantTables(t.store)).map((x) => x.name);
    for (const expected of ["installations", "sign_ins", "webhook_inbox", "customer_index", "customer_index_tags", "search_tenants", "console_preferences", "audit_log", "audit_targets", "order_refunds", "shop_register"]) expect(names).toContain(expected);
    expect(names).not.toContain("environments");
  });

  it("disconnect leaves 0 rows of the tenant in every table, the other tenant untouched; the audit log keeps one final entry", async () => {
    await seedTenant(t.store, t.schema, A);
    await seedTenant(t.store, t.schema, B);
    const before = await tenantHoldings(t.store, A);
    expect(before.every((h) => h.rows > 0)).toBe(true);
    const otherBefore = total(await tenantHoldings(t.store, B));
    const finals: unknown[] = [];
    await disconnectTenant(
      { store: t.store, flushAudit: async () => {}, appendFinal: async (draft) => void finals.push(draft) },
      A,
      { id: "admin1", name: "Ada" },
      { deleteAudit: false, requestId: "req-disconnect" },
    );
    const after = await tenantHoldings(t.store, A);
    expect(after.filter((h) => h.rows > 0)).toEqual([]);
    expect(finals).toMatchObject([{ operation: "tenant.disconnect", actor: { id: "admin1" }, key: A }]);
    expect(total(await tenantHoldings(t.store, B))).toBe(otherBefore);
    expect(await wasDisconnected(t.store, A)).toBe(true);
    expect(await wasDisconnected(t.store, B)).toBe(false);
    // The SQLite full-text rows went with the index rows they indexed.
    if (t.store.dialect === "sqlite") {
      const fts = await sql<{ n: number }>`SELECT count(*) AS n FROM customer_fts`.execute(t.store.db);
      expect(Number(fts.rows[0]!.n)).toBe(1);
    }
  });

  it("the admin may choose to delete the audit log too: no final entry", async () => {
    await seedTenant(t.store, t.schema, A);
    const finals: unknown[] = [];
    await disconnectTenant({ store: t.store, flushAudit: async () => {}, appendFinal: async (d) => void finals.push(d) }, A, { id: "admin1", name: "Ada" }, { deleteAudit: true, requestId: "r" });
    expect(finals).toEqual([]);
    expect((await listAuditEntries(t.store, A, {}, { limit: 5 })).entries).toEqual([]);
  });

  it("a dead installation's data goes after its grace period, unless it was authorized again", async () => {
    const DAY = 86_400_000;
    await seedTenant(t.store, t.schema, A);
    await seedTenant(t.store, t.schema, B);
    await t.store.db.updateTable("installations").set({ status: "reauth_required" }).execute();
    await t.store.db.deleteFrom("installation_ends").execute();
    await markInstallationEnded(t.store, A, "refresh_refused", null, 0);
    await markInstallationEnded(t.store, B, "refresh_refused", null, 0);
    // B was authorized again after its mark.
    await saveInstallation(t.store, { ...B, installedBy: "admin1", tokens }, 5 * DAY);
    const deps = { store: t.store, flushAudit: async () => {} };
    expect(await sweepEndedInstallations({ ...deps, now: () => 29 * DAY })).toEqual([]);
    expect(await sweepEndedInstallations({ ...deps, now: () => 31 * DAY })).toEqual([A]);
    expect(total(await tenantHoldings(t.store, A))).toBe(0);
    expect(total(await tenantHoldings(t.store, B))).toBeGreaterThan(0);
    expect(await t.store.db.selectFrom("installation_ends").selectAll().execute()).toEqual([]);
    expect(await wasDisconnected(t.store, A)).toBe(false);
  });

  it("an uninstall notice by webhook marks the installation ended; its data goes after the grace period", async () => {
    const DAY = 86_400_000;
    await seedTenant(t.store, t.schema, A);
    await seedTenant(t.store, t.schema, B);
    await t.store.db.deleteFrom("installation_ends").execute();
    const topics = createTopicRegistry();
    const at = Date.now();
    subscribeUninstall(topics, async () => t.store, () => at);
    const delivery = { openAppId: A.openAppId, tenantId: A.tenantId, deliveryId: "u1" } as unknown as InboxDelivery;
    await topics.dispatch({ topic: "app.uninstalled", delivery, data: {} });
    expect(await installationEnd(t.store, A)).toEqual({ reason: "uninstalled", markedAt: at });
    expect(await installationEnd(t.store, B)).toBeUndefined();
    const deps = { store: t.store, flushAudit: async () => {} };
    expect(await sweepEndedInstallations({ ...deps, now: () => at + 29 * DAY })).toEqual([]);
    expect(await sweepEndedInstallations({ ...deps, now: () => at + 31 * DAY })).toEqual([A]);
    expect(total(await tenantHoldings(t.store, A))).toBe(0);
    expect(total(await tenantHoldings(t.store, B))).toBeGreaterThan(0);
  });

  it("removes nothing of another tenant whose ids look alike", async () => {
    await seedTenant(t.store, t.schema, A);
    const other = { openAppId: "oa-b", tenantId: A.tenantId };
    await seedTenant(t.store, t.schema, other);
    await removeTenantData({ store: t.store, flushAudit: async () => {} }, A);
    expect((await tenantHoldings(t.store, other)).every((h) => h.rows > 0)).toBe(true);
  });
});
