import { describe, expect, it } from "vitest";
import { parseCsv } from "@/lib/events/csv";
import { readUntilFailure } from "./testing";
import { startCsvExport, exportPlan, type ExportRow, type FetchPage } from "./customer-export";
import { exportState, runCustomerExport, type CustomerExportCheckpoint, type CustomerExportContext, type CustomerExportInput } from "./customer-export-task";
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
    let rows = customers.filter((c) => (q.stage === undefined || c.stage === q.stage) && (q.idFrom === undefined || BigInt(c.id) >= BigInt(q.idFrom)) && (q.idTo === undefined || BigInt(c.id) <= BigInt(q.idTo)));
    if (q.sord === "desc") rows = [...rows].reverse();
    const select = String(q.select).split(",");
    return rows.slice(0, Number(q.rows)).map((c) => Object.fromEntries(select.map((k) => [k, c[k] ?? null])) as ExportRow);
  };
  return { fetchPage, calls: () => calls };
}

/**
 * A TaskContext as lib/tasks gives one, in memory: the file's bytes, the saved checkpoint, the
 * progress seen. `crashAfterAppends`: the Nth append's progress write fails as a process dying
 * between the two would (the bytes are in the file, the checkpoint is not).
 */
function fakeTask(input: CustomerExportInput, saved: { checkpoint?: CustomerExportCheckpoint; bytes: Uint8Array; name?: string } = { bytes: new Uint8Array() }, crashAfterAppends?: number) {
  const abort = new AbortController();
  const progress: Array<{ done: number; total?: number | null }> = [];
  let appends = 0;
  const ctx: CustomerExportContext = {
    input,
    checkpoint: saved.checkpoint,
    signal: abort.signal,
    async progress(update) {
      if (crashAfterAppends !== undefined && appends >= crashAfterAppends) throw new Error("process died");
      progress.push({ done: update.done, total: update.total });
      if (update.checkpoint) saved.checkpoint = update.checkpoint;
    },
    file: {
      async begin(name) {
        saved.name = name;
        saved.bytes = new Uint8Array();
      },
      async append(chunk) {
        appends++;
        const add = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        const next = new Uint8Array(saved.bytes.byteLength + add.byteLength);
        next.set(saved.bytes);
        next.set(add, saved.bytes.byteLength);
        saved.bytes = next;
      },
      async writtenBytes() {
        return saved.bytes.byteLength;
      },
      async truncate(bytes) {
        saved.bytes = saved.bytes.slice(0, bytes);
      },
    },
  };
  return { ctx, saved, progress, abort };
}

const listOf = (patch: Omit<Partial<typeof DEFAULT_STATE>, "filters"> & { filters?: Partial<typeof EMPTY_FILTERS> } = {}) =>
  serializeListState({ ...DEFAULT_STATE, ...patch, filters: { ...EMPTY_FILTERS, ...patch.filters } }).toString();

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("the customers export as a task", () => {
  it("writes the same file as the streamed download, with progress against the count", async () => {
    const list = listOf({ columns: ["displayName", "mobile", "dateCreated"], filters: { stage: "lead" } });
    const platform = fakePlatform();
    const task = fakeTask({ list });
    const result = await runCustomerExport(task.ctx, { fetchPage: platform.fetchPage, count: async () => 353, fileName: "customers.csv", pageSize: 100 });
    const leads = customers.filter((c) => c.stage === "lead");
    expect(result.rows).toBe(leads.length);
    const streamed = await readUntilFailure(await startCsvExport(exportPlan(exportState({ list })), fakePlatform().fetchPage, { pageSize: 100 }));
    // The CSV format is the download's, byte for byte (BOM, header, formula guard, CRLF).
    expect(text(task.saved.bytes)).toBe(streamed.text);
    expect(parseCsv(text(task.saved.bytes).slice(1)).slice(1).map((r) => r[0])).toEqual(leads.map((c) => c.id));
    expect(task.progress[0]).toEqual({ done: 0, total: 353 });
    expect(task.progress.at(-1)).toEqual({ done: leads.length, total: 353 });
    expect(task.saved.name).toBe("customers.csv");
  });

  it("resumes after a stop between a page's append and its checkpoint: no duplicate, no gap", async () => {
    const list = listOf({ columns: ["displayName"] });
    const whole = fakeTask({ list });
    await runCustomerExport(whole.ctx, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 50 });

    const saved = { bytes: new Uint8Array() } as { checkpoint?: CustomerExportCheckpoint; bytes: Uint8Array };
    // Header, then pages 1–3 appended; the third page's checkpoint never lands.
    const first = fakeTask({ list }, saved, 4);
    await expect(runCustomerExport(first.ctx, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 50 })).rejects.toThrow("process died");
    expect(saved.checkpoint?.rows).toBe(100);
    expect(saved.bytes.byteLength).toBeGreaterThan(saved.checkpoint!.bytes);

    const platform = fakePlatform();
    const second = fakeTask({ list }, saved);
    const result = await runCustomerExport(second.ctx, { fetchPage: platform.fetchPage, fileName: "c.csv", pageSize: 50 });
    expect(result.rows).toBe(customers.length);
    expect(text(saved.bytes)).toBe(text(whole.saved.bytes));
    const ids = parseCsv(text(saved.bytes).slice(1)).slice(1).map((r) => r[0]);
    expect(new Set(ids).size).toBe(customers.length);
    // The resumed run reads from the checkpoint on: pages 3..11 and the empty one.
    expect(platform.calls()).toBe(Math.ceil((customers.length - 100) / 50) + 1);
  });

  it("a failed page fails the run and keeps what the checkpoint says; a retry completes it", async () => {
    const list = listOf({ sort: "id", order: "desc", columns: ["mobile"] });
    const whole = fakeTask({ list });
    await runCustomerExport(whole.ctx, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 100 });
    const saved = { bytes: new Uint8Array() } as { checkpoint?: CustomerExportCheckpoint; bytes: Uint8Array };
    await expect(runCustomerExport(fakeTask({ list }, saved).ctx, { fetchPage: fakePlatform({ failOnCall: 3 }).fetchPage, fileName: "c.csv", pageSize: 100 })).rejects.toThrow("upstream 502");
    await runCustomerExport(fakeTask({ list }, saved).ctx, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv", pageSize: 100 });
    expect(text(saved.bytes)).toBe(text(whole.saved.bytes));
  });

  it("a cancelled task stops at once", async () => {
    const task = fakeTask({ list: listOf() });
    task.abort.abort();
    await expect(runCustomerExport(task.ctx, { fetchPage: fakePlatform().fetchPage, fileName: "c.csv" })).rejects.toThrow();
  });

  it("a count the platform refuses leaves the total unknown", async () => {
    const task = fakeTask({ list: listOf() });
    await runCustomerExport(task.ctx, { fetchPage: fakePlatform().fetchPage, count: async () => Promise.reject(new Error("no")), fileName: "c.csv" });
    expect(task.progress.at(-1)).toEqual({ done: customers.length, total: null });
  });
});
