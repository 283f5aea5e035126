import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { parseCsv } from "./csv";
import { describeInEnglish } from "./event-csv";
import type { SendBatches } from "./import-run";
import { runEventImport, type EventImportCheckpoint, type EventImportContext, type EventImportDeps, type EventImportInput } from "./import-task";
import { classifyApiError } from "./start-import";

const ROWS = 1234;
// Every 97th row is invalid (a number column with text); rows 5xx of user U-13 the platform refuses.
const csv = [
  "identityType,identityValue,event,date,visits:number",
  ...Array.from({ length: ROWS }, (_, i) => `crm,U-${i},c_visit,2026-11-20 10:${String(i % 60).padStart(2, "0")}:00,${i % 97 === 5 ? "many" : i}`),
].join("\r\n");
const bytes = new TextEncoder().encode(csv);

/** A fake platform: an event is stored once per (identity, event, date), as §2.3's externalId makes it. */
function fakePlatform(options: { refuse?: (identity: string) => boolean; failFirst?: number } = {}) {
  const stored = new Map<string, number>();
  let sends = 0;
  const send: SendBatches = async (batches) => {
    await new Promise((r) => setImmediate(r));
    if (++sends <= (options.failFirst ?? 0)) throw new ApiError({ status: 503, code: "unavailable", message: "try later" });
    return batches.map((b) => {
      const bad = b.events.findIndex((e) => options.refuse?.(String(e.identityValue)));
      if (bad >= 0) return { stored: false, error: new ApiError({ status: 422, code: "invalid_input", message: "refused", fieldErrors: [{ field: `events[${bad}].identityValue`, message: "unknown customer" }] }) };
      for (const e of b.events) {
        const k = `${e.identityValue}|${e.event}|${e.date}`;
        stored.set(k, (stored.get(k) ?? 0) + 1);
      }
      return { stored: true };
    });
  };
  return { send, stored, sends: () => sends };
}

type Saved = { checkpoint?: EventImportCheckpoint; report: Uint8Array; name?: string };

function fakeTask(input: EventImportInput, saved: Saved, crashAfterProgress?: number) {
  const abort = new AbortController();
  let calls = 0;
  const messages: string[] = [];
  const ctx: EventImportContext = {
    input,
    checkpoint: saved.checkpoint,
    signal: abort.signal,
    async progress(update) {
      if (crashAfterProgress !== undefined && ++calls > crashAfterProgress) throw new Error("process died");
      if (update.message) messages.push(update.message);
      if (update.checkpoint) saved.checkpoint = update.checkpoint;
    },
    file: {
      async begin(name) {
        saved.name = name;
        saved.report = new Uint8Array();
      },
      async append(chunk) {
        const add = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        const next = new Uint8Array(saved.report.byteLength + add.byteLength);
        next.set(saved.report);
        next.set(add, saved.report.byteLength);
        saved.report = next;
      },
      async writtenBytes() {
        return saved.report.byteLength;
      },
      async truncate(n) {
        saved.report = saved.report.slice(0, n);
      },
    },
  };
  return { ctx, abort, messages };
}

const input: EventImportInput = { upload: "u1", name: "events.csv", size: bytes.byteLength, rule: "date", locale: "en" };
const deps = (send: SendBatches): EventImportDeps => ({
  open: () => new Blob([bytes]).stream(),
  send,
  classify: classifyApiError,
  describe: describeInEnglish,
  labels: { row: "row", reason: "reason" },
  headerError: (problems) => new Error(`header: ${problems.join(", ")}`),
  message: (at) => `${at.sent} sent, ${at.failed} failed`,
  baseDelayMs: 1,
  sleep: async () => undefined,
});

const invalid = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 97 === 5);
const refusedUser = (id: string) => id === "U-13" || id === "U-600";
const reportOf = (saved: Saved) => parseCsv(new TextDecoder().decode(saved.report));

describe("the event import as a task", () => {
  it("sends every valid row once and writes the failures in file order", async () => {
    const platform = fakePlatform({ refuse: refusedUser, failFirst: 2 });
    const saved: Saved = { report: new Uint8Array() };
    const task = fakeTask(input, saved);
    const result = await runEventImport(task.ctx, deps(platform.send));
    expect(result).toEqual({ rows: ROWS, sent: ROWS - invalid.length - 2, failed: invalid.length + 2, invalid: invalid.length, sourceError: null, reportRows: invalid.length + 2 });
    expect([...platform.stored.values()].every((n) => n === 1)).toBe(true);
    expect(platform.stored.size).toBe(ROWS - invalid.length - 2);
    const report = reportOf(saved);
    expect(report[0]).toEqual(["row", "reason", "identityType", "identityValue", "event", "date", "visits:number"]);
    // Rows are numbered as in the file (the header is row 1).
    const rows = report.slice(1).map((r) => Number(r[0]));
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(rows).toEqual(expect.arrayContaining([13 + 2, 600 + 2, ...invalid.map((i) => i + 2)]));
    expect(report.find((r) => r[0] === "15")?.[1]).toBe("identityValue: unknown customer");
    expect(saved.name).toBe("events-import-failures.csv");
    expect(task.messages.at(-1)).toBe(`${ROWS - invalid.length - 2} sent, ${invalid.length + 2} failed`);
    expect(saved.checkpoint).toMatchObject({ bytesRead: bytes.byteLength });
  });

  it("resumes after a stop midway: every event stored, the report the same as in one run", async () => {
    const whole: Saved = { report: new Uint8Array() };
    await runEventImport(fakeTask(input, whole).ctx, deps(fakePlatform({ refuse: refusedUser }).send));

    const platform = fakePlatform({ refuse: refusedUser });
    const saved: Saved = { report: new Uint8Array() };
    await expect(runEventImport(fakeTask(input, saved, 2).ctx, deps(platform.send))).rejects.toThrow("process died");
    const stoppedAt = saved.checkpoint!;
    expect(stoppedAt.row).toBeGreaterThan(0);
    expect(stoppedAt.row).toBeLessThan(ROWS);
    const result = await runEventImport(fakeTask(input, saved).ctx, deps(platform.send));
    expect(result.sent).toBe(ROWS - invalid.length - 2);
    // Each event once at the platform (§2.3), though rows past the checkpoint were sent again.
    expect(platform.stored.size).toBe(ROWS - invalid.length - 2);
    expect(new TextDecoder().decode(saved.report)).toBe(new TextDecoder().decode(whole.report));
  });

  it("a cancelled task stops sending", async () => {
    const platform = fakePlatform();
    const saved: Saved = { report: new Uint8Array() };
    const task = fakeTask(input, saved);
    let n = 0;
    const send: SendBatches = async (batches, signal) => {
      if (++n === 3) task.abort.abort();
      return platform.send(batches, signal);
    };
    await expect(runEventImport(task.ctx, deps(send))).rejects.toThrow();
    expect(platform.stored.size).toBeLessThan(ROWS - invalid.length);
  });

  it("a header that cannot be imported fails the task before anything is sent", async () => {
    const platform = fakePlatform();
    const bad = { ...deps(platform.send), open: () => new Blob(["event,date\r\nx,y\r\n"]).stream() };
    await expect(runEventImport(fakeTask(input, { report: new Uint8Array() }).ctx, bad)).rejects.toThrow(/^header: /);
    expect(platform.sends()).toBe(0);
  });
});
