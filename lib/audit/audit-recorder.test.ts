import { describe, expect, it } from "vitest";
import type { AuditDraft } from "@/lib/http/audit-hook";
import { upsertCustomers } from "@/lib/search/index-store";
import { ensureTenant } from "@/lib/search/tenant-state";
import { describeEachDialect } from "@/lib/store/testing";
import { changesOf, createAuditRecorder, targetsOf } from "./audit-recorder";
import { listAuditEntries } from "./audit-store";

const KEY = { openAppId: "oa-a", tenantId: "100" };
const draft = (over: Partial<AuditDraft> = {}): AuditDraft => ({
  key: KEY,
  actor: { id: "u1", name: "Ada" },
  operation: "customers.update",
  method: "PUT",
  resource: "customers",
  at: 1000,
  status: 200,
  outcome: "done",
  requestId: "req-1",
  input: { params: { id: "9007199254740993" }, body: { name: "Li Na", stage: "lead" } },
  ...over,
});

describe("what an entry says", () => {
  it("finds the ids a write names, by the operation's kind or the field's", () => {
    expect(targetsOf({ params: { id: "9007199254740993" } }, "customers")).toEqual([{ kind: "customer", id: "9007199254740993" }]);
    expect(targetsOf({ query: { fromId: "1", toId: "2" } }, "customers")).toEqual([{ kind: "customer", id: "1" }, { kind: "customer", id: "2" }]);
    expect(targetsOf({ body: { orderNo: "D-2026-1", lineIds: ["5"] } }, "deals")).toEqual([{ kind: "order", id: "D-2026-1" }, { kind: "lineId".replace("Id", ""), id: "5" }]);
    expect(targetsOf({ body: { customerIds: ["7", "8"], listId: "3" } }, "listMembers")).toEqual([{ kind: "customer", id: "7" }, { kind: "customer", id: "8" }, { kind: "list", id: "3" }]);
    expect(targetsOf({ body: { key: "attrLabels", value: { attr1: "x" } } }, "preferences")).toEqual([]);
  });

  it("an edit's changes: before (from the platform's answer of the record before) → after, unchanged fields left out", () => {
    expect(changesOf(draft({ answer: () => ({ id: "9007199254740993", name: "Li", stage: "lead" }) }))).toEqual({ name: { before: "Li", after: "Li Na" } });
    expect(changesOf(draft())).toEqual({ name: { after: "Li Na" }, stage: { after: "lead" } });
    expect(changesOf(draft({ method: "POST" }))).toBeNull();
    // A refused edit changed nothing: its answer is not a record.
    expect(changesOf(draft({ outcome: "refused", answer: () => ({ name: "Li" }) }))).toEqual({ name: { after: "Li Na" }, stage: { after: "lead" } });
  });
});

describeEachDialect("the audit recorder", (t) => {
  it("writes after the answer, names customers from the people index, and tries again when the store fails", async () => {
    const state = await ensureTenant(t.store, KEY);
    await upsertCustomers(t.store, state.tenant, [{ id: "9007199254740993", name: "Li Na", displayName: "Li Na" }]);
    let failures = 1;
    const warned: unknown[] = [];
    const recorder = createAuditRecorder({
      store: async () => {
        if (failures-- > 0) throw new Error("store down");
        return t.store;
      },
      log: { warn: (o) => void warned.push(o), error: () => {} },
      sleep: async () => {},
    });
    recorder.record(draft({ answer: () => ({ name: "Li", stage: "lead" }) }));
    recorder.record(draft({ at: 2000, operation: "customers.mergeById", method: "POST", input: { query: { fromId: "9007199254740993", toId: "2" } } }));
    await recorder.flush();
    expect(warned).toHaveLength(1);
    const { entries } = await listAuditEntries(t.store, KEY, {}, { limit: 10 });
    expect(entries.map((e) => [e.operation, e.targets, e.changes])).toEqual([
      ["customers.mergeById", [{ kind: "customer", id: "9007199254740993", name: "Li Na" }, { kind: "customer", id: "2" }], null],
      ["customers.update", [{ kind: "customer", id: "9007199254740993", name: "Li Na" }], { name: { before: "Li", after: "Li Na" } }],
    ]);
  });
});
