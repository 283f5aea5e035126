import { describe, expect, it } from "vitest";
import { parseCsv } from "@/lib/events/csv";
import { operations } from "@/lib/platform/operations";
import { exportPageQuery, exportPlan, startCsvExport, type ExportOutcome, type ExportRow, type FetchPage } from "./customer-export";
import { DEFAULT_STATE, EMPTY_FILTERS, type CustomerListState } from "./customer-list-state";
import { readUntilFailure } from "./testing";

const BASE = 2n ** 53n + 1000n; // ids above 2^53, as the platform issues them
const customers: ExportRow[] = Array.from({ length: 2500 }, (_, i) => ({
  id: String(BASE + BigInt(i * 3)), // gaps between ids, as after deletions
  displayName: i % 7 === 0 ? `=cmd|' /C calc'!A0` : `客户 ${i}`,
  mobile: `+86 138${String(i).padStart(8, "0")}`,
  stage: i % 2 ? "lead" : "customer",
  dateCreated: "2026-01-02T03:04:05Z",
  remark: i === 5 ? "line one\r\nline two, \"quoted\"" : null,
}));

type Call = { query: Record<string, unknown>; signal: AbortSignal };

/** A fake platform answering §4.1 like the sandbox: filters, id range, id order, rows/page, select. */
function fakePlatform(options: { failOn?: number; ignoreRange?: boolean } = {}) {
  const calls: Call[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const idle: Array<() => void> = [];
  const fetchPage: FetchPage = async (query, signal) => {
    calls.push({ query, signal });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((r) => setTimeout(r, 1));
      signal.throwIfAborted();
      if (calls.length === options.failOn) throw new Error("upstream 502");
      const q = query as Record<string, string | number | undefined>;
      let rows = customers.filter((c) => (q.stage === undefined || c.stage === q.stage) && (options.ignoreRange || ((q.idFrom === undefined || BigInt(c.id) >= BigInt(q.idFrom)) && (q.idTo === undefined || BigInt(c.id) <= BigInt(q.idTo)))));
      if (q.sord === "desc") rows = [...rows].reverse();
      const n = Number(q.rows);
      const select = String(q.select).split(",");
      return rows.slice((Number(q.page) - 1) * n, Number(q.page) * n).map((c) => Object.fromEntries(select.map((k) => [k, c[k] ?? null])) as ExportRow);
    } finally {
      if (--inFlight === 0) for (const resolve of idle.splice(0)) resolve();
    }
  };
  /**
   * Resolves once no page is being fetched and the export has done all it would do with the pages
   * fetched: one turn of the event loop runs every promise already due (no wait for time).
   */
  const settled = async () => {
    if (inFlight > 0) await new Promise<void>((resolve) => idle.push(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { fetchPage, calls, maxInFlight: () => maxInFlight, settled };
}

const state = (patch: Omit<Partial<CustomerListState>, "filters"> & { filters?: Partial<CustomerListState["filters"]> } = {}): CustomerListState => ({
  ...DEFAULT_STATE,
  ...patch,
  filters: { ...EMPTY_FILTERS, ...patch.filters },
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

describe("the export walker (keyset on id, sequential, large pages)", () => {
  it("walks every page by keyset, one request at a time, and writes BOM, header and rows", async () => {
    const platform = fakePlatform();
    const plan = exportPlan(state({ columns: ["displayName", "mobile", "dateCreated", "remark"] }));
    const text = await readAll(await startCsvExport(plan, platform.fetchPage));
    expect(text.startsWith("\uFEFFid,displayName,mobile,dateCreated (UTC),remark\r\n")).toBe(true);
    const records = parseCsv(text.slice(1));
    expect(records).toHaveLength(customers.length + 1);
    expect(records.map((r) => r[0]).slice(1)).toEqual(customers.map((c) => c.id));
    expect(records[1]).toEqual([customers[0]!.id, "'=cmd|' /C calc'!A0", "'+86 13800000000", "2026-01-02T03:04:05Z", ""]);
    expect(records[6]![4]).toBe('line one\r\nline two, "quoted"');
    // 1000 + 1000 + 500 + an empty page; each after the last id of the one before.
    expect(platform.calls.map((c) => c.query.idFrom)).toEqual([undefined, String(BigInt(customers[999]!.id) + 1n), String(BigInt(customers[1999]!.id) + 1n), String(BigInt(customers[2499]!.id) + 1n)]);
    expect(platform.calls.every((c) => c.query.page === 1 && c.query.sidx === "id" && c.query.rows === 1000)).toBe(true);
    expect(platform.maxInFlight()).toBe(1);
  });

  it("honours every filter and the user's id range, and the list's id direction", async () => {
    const platform = fakePlatform();
    const from = customers[100]!.id;
    const to = customers[1800]!.id;
    const plan = exportPlan(state({ sort: "id", order: "desc", filters: { stage: "lead", idFrom: from, idTo: to, email: "a@b.c", hasMobile: "true" } }));
    const records = parseCsv((await readAll(await startCsvExport(plan, platform.fetchPage, { pageSize: 300 }))).slice(1)).slice(1);
    const expected = customers.filter((c) => c.stage === "lead" && BigInt(c.id) >= BigInt(from) && BigInt(c.id) <= BigInt(to)).reverse();
    expect(records.map((r) => r[0])).toEqual(expected.map((c) => c.id));
    expect(platform.calls[0]!.query).toMatchObject({ stage: "lead", email: "a@b.c", hasMobile: true, idFrom: from, idTo: to, sord: "desc" });
    expect(platform.calls[1]!.query).toMatchObject({ idFrom: from, idTo: String(BigInt(expected[299]!.id) - 1n) });
    for (const call of platform.calls) expect(operations["customers.list"].query.safeParse(call.query).success).toBe(true);
  });

  it("walks in id order (ascending) whatever column the list is sorted by", () => {
    const query = exportPageQuery(exportPlan(state({ sort: "dateCreated", order: "desc" })), "9007199254740993");
    expect(query).toMatchObject({ sidx: "id", sord: "asc", idFrom: "9007199254740994", page: 1 });
  });

  it("fetches a page only when the reader has taken the one before (backpressure)", async () => {
    const platform = fakePlatform();
    const reader = (await startCsvExport(exportPlan(state()), platform.fetchPage, { pageSize: 100 })).getReader();
    await platform.settled();
    expect(platform.calls).toHaveLength(1); // nobody read: nothing more is fetched
    await reader.read();
    await platform.settled();
    expect(platform.calls).toHaveLength(2); // the page taken is replaced by one, no more
    await reader.cancel();
  });

  it("stops fetching and aborts the request in flight when the reader cancels", async () => {
    const platform = fakePlatform();
    let outcome: ExportOutcome | undefined;
    const reader = (await startCsvExport(exportPlan(state()), platform.fetchPage, { pageSize: 100, onEnd: (o) => (outcome = o) })).getReader();
    await reader.read();
    await reader.read();
    const before = platform.calls.length;
    await reader.cancel();
    await platform.settled();
    expect(platform.calls.length).toBe(before);
    expect(platform.calls.at(-1)!.signal.aborted).toBe(true);
    expect(outcome).toMatchObject({ cancelled: true });
  });

  it("fails the stream when a page fails midway, after the rows already written, and says so", async () => {
    const platform = fakePlatform({ failOn: 3 });
    let outcome: ExportOutcome | undefined;
    const { text, error } = await readUntilFailure(await startCsvExport(exportPlan(state()), platform.fetchPage, { onEnd: (o) => (outcome = o) }));
    expect(error).toMatchObject({ message: "upstream 502" });
    expect(parseCsv(text)).toHaveLength(2001);
    expect(outcome).toMatchObject({ rows: 2000 });
    expect(String((outcome!.error as Error).message)).toBe("upstream 502");
  });

  it("refuses before streaming when the first page fails (an HTTP error, not a broken file)", async () => {
    await expect(startCsvExport(exportPlan(state()), fakePlatform({ failOn: 1 }).fetchPage)).rejects.toThrow("upstream 502");
  });

  it("writes the header alone for no rows", async () => {
    const platform = fakePlatform();
    const text = await readAll(await startCsvExport(exportPlan(state({ filters: { stage: "nobody" } })), platform.fetchPage));
    expect(text).toBe("\uFEFFid,displayName,mobile,email,stage,source,dateCreated (UTC),lastUpdated (UTC)\r\n");
    expect(platform.calls).toHaveLength(1);
  });

  it("stops with an error when the platform does not move past the previous page", async () => {
    const stream = await startCsvExport(exportPlan(state()), fakePlatform({ ignoreRange: true }).fetchPage);
    await expect(readAll(stream)).rejects.toThrow(/do not follow/);
  });
});
