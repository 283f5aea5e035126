import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { describeEachDialect } from "@/lib/store/testing";
import { appendAuditEntries, auditFacets, listAuditEntries, setAuditRetentionDays, sweepAuditLog, type AuditEntryInput } from "./audit-store";

const A = { openAppId: "oa-a", tenantId: "100" };
const B = { openAppId: "oa-a", tenantId: "200" };
const DAY = 86_400_000;

const entry = (key: typeof A, at: number, over: Partial<AuditEntryInput> = {}): AuditEntryInput => ({
  key,
  at,
  actorId: "u1",
  actorName: "Ada",
  operation: "customers.update",
  method: "PUT",
  outcome: "done",
  status: 200,
  reason: null,
  requestId: `req-${at}`,
  targets: [{ kind: "customer", id: "9007199254740993", name: "Li Na" }],
  changes: { name: { before: "Li", after: "Li Na" } },
  ...over,
});

describeEachDialect("audit log", (t) => {
  it("keeps entries newest first, a keyset page at a time, and each tenant sees only its own", async () => {
    await appendAuditEntries(t.store, [1, 2, 3, 4, 5].map((i) => entry(A, i * 1000)));
    await appendAuditEntries(t.store, [entry(B, 6000, { actorId: "u9" })]);
    const first = await listAuditEntries(t.store, A, {}, { limit: 2 });
    expect(first.entries.map((e) => e.at)).toEqual([5000, 4000]);
    expect(first.entries[0]).toMatchObject({ actorName: "Ada", targets: [{ kind: "customer", id: "9007199254740993", name: "Li Na" }], changes: { name: { before: "Li", after: "Li Na" } } });
    const second = await listAuditEntries(t.store, A, {}, { before: first.next!, limit: 2 });
    expect(second.entries.map((e) => e.at)).toEqual([3000, 2000]);
    const last = await listAuditEntries(t.store, A, {}, { before: second.next!, limit: 2 });
    expect(last.entries.map((e) => e.at)).toEqual([1000]);
    expect(last.next).toBeNull();
    expect((await listAuditEntries(t.store, B, {}, { limit: 10 })).entries.map((e) => e.actorId)).toEqual(["u9"]);
    expect((await auditFacets(t.store, A)).actors).toEqual([{ id: "u1", name: "Ada" }]);
  });

  it("filters by staff member, operation, outcome, target and time", async () => {
    await appendAuditEntries(t.store, [
      entry(A, 1000),
      entry(A, 2000, { actorId: "u2", operation: "customers.mergeById", targets: [{ kind: "customer", id: "1" }, { kind: "customer", id: "2" }] }),
      entry(A, 3000, { outcome: "refused", status: 422, reason: "validation: bad" }),
    ]);
    const ats = async (filters: Parameters<typeof listAuditEntries>[2]) => (await listAuditEntries(t.store, A, filters, { limit: 10 })).entries.map((e) => e.at);
    expect(await ats({ actorId: "u2" })).toEqual([2000]);
    expect(await ats({ operation: "customers.update" })).toEqual([3000, 1000]);
    expect(await ats({ outcome: "refused" })).toEqual([3000]);
    expect(await ats({ targetId: "2" })).toEqual([2000]);
    expect(await ats({ targetId: "9007199254740993" })).toEqual([3000, 1000]);
    expect(await ats({ from: 1500, to: 3000 })).toEqual([2000]);
    // Another tenant's target of the same id is not this tenant's trail.
    await appendAuditEntries(t.store, [entry(B, 4000, { targets: [{ kind: "customer", id: "2" }] })]);
    expect(await ats({ targetId: "2" })).toEqual([2000]);
  });

  it("is append-only: the store refuses to change an entry", async () => {
    await appendAuditEntries(t.store, [entry(A, 1000)]);
    await expect(sql`UPDATE audit_log SET actor_id = 'someone else'`.execute(t.store.db)).rejects.toThrow(/append-only/);
    expect((await listAuditEntries(t.store, A, {}, { limit: 1 })).entries[0]!.actorId).toBe("u1");
  });

  it("the retention sweep removes what is older than the tenant's retention (default 400 days), with its targets", async () => {
    const now = 1000 * DAY;
    await appendAuditEntries(t.store, [entry(A, now - 401 * DAY), entry(A, now - 399 * DAY), entry(B, now - 40 * DAY), entry(B, now - 20 * DAY)]);
    await setAuditRetentionDays(t.store, B, 30, "Ada");
    expect(await sweepAuditLog(t.store, now)).toBe(2);
    expect((await listAuditEntries(t.store, A, {}, { limit: 10 })).entries.map((e) => e.at)).toEqual([now - 399 * DAY]);
    expect((await listAuditEntries(t.store, B, {}, { limit: 10 })).entries.map((e) => e.at)).toEqual([now - 20 * DAY]);
    const targets = await t.store.db.selectFrom("audit_targets").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
    expect(Number(targets.n)).toBe(2);
  });
});

describe("audit log module", () => {
  it("has no way to change an entry: it exports no update", async () => {
    const exported = Object.keys(await import("./audit-store"));
    expect(exported.filter((name) => /update|edit|modify/i.test(name))).toEqual([]);
  });
});
