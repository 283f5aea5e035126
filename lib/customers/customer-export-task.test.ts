import { describe, expect, it } from "vitest";
import { parseCsv } from "@/lib/events/csv";
import { readUntilFailure } from "./testing";
import { startCsvExport, exportPlan, type ExportRow, type FetchPage } from "./customer-export";
import { fakeTaskContext, savedTask, type SavedTask } from "@/lib/tasks/fake-context";
import { exportState, runCustomerExport, type CustomerExportCheckpoint, type CustomerExportInput } from "./customer-export-task";
import { DEFAULT_STATE, EMPTY_FILTERS, serializeListState } from "./customer-list-state";

const BASE = 2n ** 53n + 7n;
const customers: ExportRow[] = Array.from({ length: 530 }, (_, i) => ({
  id: String(BASE + BigInt(i * 2)),
  displayName: i % 9 === 0 ? `=SUM(A1)` : `客户 ${i}`,
  mobile: `+86 139${String(i).padStart(8, "0")}`,
  stage: i % 3 ? "lead" : "customer",
  dateCreated: "2026-01-02T03:04:05Z",
}));

/** A fake §4.1 platform: stage filter, id range, id order, rows, select. */
function fakePlatform(options: { failOnCall?: number } = {}) {
  let calls = 0;
  const fetchPage: FetchPage = async (query, signal) => {
    calls++;
    signal.throwIfAborted();
    if (calls === options.failOnCall) throw new Error("upstream 502");
    const q = query as Record<string, string | number | undefined>;
    const idList = q.idList === undefined ? undefined : new Set(String(q.idList).split(","));
    let rows = customers.filter((c) => (q.stage === undefined || c.stage === q.stage) && (q.idFrom === undefined || BigInt(c.id) >= BigInt(q.idFrom)) && (q.idTo === undefined || BigInt(c.id) <= BigInt(q.idTo)) && (!idList || idList.has(c.id)));
    if (q.sord === "desc") rows = [...rows].reverse();
    const select = String(q.select).split(",");
    return rows.slice(0, Number(q.rows)).map((c) => Object.fromEntries(select.map((k) => [k, c[k] ?? null])) as ExportRow);
  };
  return { fetchPage, calls: () => calls };
}

/** Runs the export in a fake task context; `finish` stores the last appends as the runner does when `run` returns. */
async function exportInto(saved: SavedTask<CustomerExportCheckpoint>, input: CustomerExportInput, deps: Parameters<typeof runCustomerExport>[1], options: { dieAfterProgress?: number } = {}) {
  const task = fakeTaskContext<CustomerExportInput, CustomerExportCheckpoint>(input, saved, options);
  const result = await runCustomerExport(task.ctx, deps);
  task.finish();
  return result;
}

const listOf = (patch: Omit<Partial<typeof DEFAULT_STATE>, "filters"> & { filters?: Partial<typeof EMPTY_FILTERS> } = {}) =>
  serializeListState({ ...DEFAULT_STATE, ...patch, filters: { ...EMPTY_FILTERS, ...patch.filters } }).toString();

const text = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

const idsOf = (csv: string) => parseCsv(csv).slice(1).map((r) => r[0]);

describe("the customers export as a task", () => {
  it("writes the same file as the streamed download, with progress against the count", async () => {
    const list = listOf({ columns: ["displayName", "mobile", "dateCreated"], filters: { stage: "lead" } });
    const saved = savedTask<CustomerExportCheckpoint>();
    const result = await exportInto(saved, { list }, { fetchPage: fakePlatform().fetchPage, count: async () => 353, fileName: "customers.csv", pageSize: 100 });
    const leads = customers.filter((c) => c.stage === "lead");
    expect(result.rows).toBe(leads.length);
    const streamed = await readUntilFailure(await startCsvExport(exportPlan(exportState({ list })), fakePlatform().fetchPage, { pageSize: 100 }));
    // The CSV format is the download's, byte for byte (BOM, header, formula guard, CRLF).
    // (readUntilFailure's decoder drops the BOM the stream sent.)
    expect(text(saved.file)).toBe(`\uFEFF${streamed.text}`);
    expect(idsOf(text(saved.file).slice(1))).toEqual(leads.map((c) => c.id));
    expect(saved.progress[0]).toMatchObject({ done: 0, total: 353 });
    expect(saved.progress.at(-1)).toMatchObject({ done: leads.length, total: 353 });
    expect(saved.name).toBe("customers.csv");
  });

  it("resumes after a stop between a page's append and its checkpoint: no duplicate, no gap", async () => {
    const list = listOf({ columns: ["displayName"] });
    const whole = savedTask<CustomerExportCheckpoint>();
    await exportInto(whole, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 50 });

    const saved = savedTask<CustomerExportCheckpoint>();
    // The header's and two pages' checkpoints land; the third page is appended, its checkpoint never.
    await expect(exportInto(saved, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 50 }, { dieAfterProgress: 3 })).rejects.toThrow("process died");
    expect(saved.checkpoint?.rows).toBe(100);
    expect(idsOf(text(saved.file).slice(1))).toHaveLength(100);

    const platform = fakePlatform();
    const result = await exportInto(saved, { list }, { fetchPage: platform.fetchPage, fileName: "c.csv", pageSize: 50 });
    expect(result.rows).toBe(customers.length);
    expect(text(saved.file)).toBe(text(whole.file));
    expect(new Set(idsOf(text(saved.file).slice(1))).size).toBe(customers.length);
    // The resumed run reads from the checkpoint on: the pages after the second, then the empty one.
    expect(platform.calls()).toBe(Math.ceil((customers.length - 100) / 50) + 1);
  });

  it("a failed page fails the run and keeps what the checkpoint says; a retry completes it", async () => {
    const list = listOf({ sort: "id", order: "desc", columns: ["mobile"] });
    const whole = savedTask<CustomerExportCheckpoint>();
    await exportInto(whole, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 100 });
    const saved = savedTask<CustomerExportCheckpoint>();
    await expect(exportInto(saved, { list }, { fetchPage: fakePlatform({ failOnCall: 3 }).fetchPage, fileName: "c.csv", pageSize: 100 })).rejects.toThrow("upstream 502");
    await exportInto(saved, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 100 });
    expect(text(saved.file)).toBe(text(whole.file));
  });

  it("a search exports the index's ids, each batch read live with the list's filters; a run that dies resumes without a repeat", async () => {
    // The index's order (newest first here), 120 ids a batch; the platform keeps only the leads of them.
    const matching = customers.filter((_, i) => i % 2 === 0).reverse();
    const searchIds = async function* (request: { q?: string }) {
      expect(request.q).toBe("客户");
      for (let i = 0; i < matching.length; i += 120) yield matching.slice(i, i + 120).map((c) => c.id);
    };
    const list = listOf({ columns: ["displayName", "stage"], filters: { q: "客户", stage: "lead" } });
    const expected = matching.filter((c) => c.stage === "lead");
    const whole = savedTask<CustomerExportCheckpoint>();
    await exportInto(whole, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", searchIds });
    expect(new Set(idsOf(text(whole.file).slice(1)))).toEqual(new Set(expected.map((c) => c.id)));

    const saved = savedTask<CustomerExportCheckpoint>();
    await expect(exportInto(saved, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", searchIds }, { dieAfterProgress: 2 })).rejects.toThrow("process died");
    await exportInto(saved, { list }, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", searchIds });
    expect(text(saved.file)).toBe(text(whole.file));
  });

  it("a list's members export their customers in the customers page's CSV; a run that dies resumes after the last member, and a member added meanwhile below it is not written twice", async () => {
    // The list holds every third customer; §4.4 pages it by customer id after `since` (exclusive).
    const members = customers.filter((_, i) => i % 3 === 0).map((c) => c.id);
    const held = [...members];
    const memberIds = async function* (listId: string, since: string | undefined) {
      expect(listId).toBe("77");
      const after = since === undefined ? held : held.filter((id) => BigInt(id) > BigInt(since));
      for (let i = 0; i < after.length; i += 50) yield after.slice(i, i + 50);
    };
    const input = { list: "", listId: "77" };
    const whole = savedTask<CustomerExportCheckpoint>();
    // The whole tenant's count is not the list's: the progress has no total rather than a wrong one.
    const count = async () => customers.length;
    await exportInto(whole, input, { fetchPage: fakePlatform().fetchPage, fileName: "m.csv", memberIds, count });
    expect(idsOf(text(whole.file).slice(1))).toEqual(members);
    expect(whole.progress.every((p) => p.total === null || p.total === undefined)).toBe(true);

    const saved = savedTask<CustomerExportCheckpoint>();
    await expect(exportInto(saved, input, { fetchPage: fakePlatform().fetchPage, fileName: "m.csv", memberIds }, { dieAfterProgress: 2 })).rejects.toThrow("process died");
    // Joined while the app was down, with an id below the last one written: not read again, no repeat.
    held.unshift(customers[1]!.id);
    await exportInto(saved, input, { fetchPage: fakePlatform().fetchPage, fileName: "m.csv", memberIds });
    expect(text(saved.file)).toBe(text(whole.file));
  });

  it("a list export without a member source fails rather than export the whole tenant", async () => {
    await expect(exportInto(savedTask<CustomerExportCheckpoint>(), { list: "", listId: "77" }, { fetchPage: fakePlatform().fetchPage, fileName: "m.csv" })).rejects.toThrow(/members/);
  });

  it("a cancelled task stops at once", async () => {
    const task = fakeTaskContext<CustomerExportInput, CustomerExportCheckpoint>({ list: listOf() }, savedTask());
    task.abort.abort();
    await expect(runCustomerExport(task.ctx, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv" })).rejects.toThrow();
  });

  it("a count the platform refuses leaves the total unknown", async () => {
    const saved = savedTask<CustomerExportCheckpoint>();
    await exportInto(saved, { list: listOf() }, { fetchPage: fakePlatform().fetchPage, count: async () => Promise.reject(new Error("no")), fileName: "c.csv" });
    expect(saved.progress.at(-1)).toMatchObject({ done: customers.length, total: null });
  });
});
