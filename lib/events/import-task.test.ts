import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform/errors";
import { parseCsv } from "./csv";
import { describeInEnglish } from "./event-csv";
import type { SendBatches } from "./import-run";
import { fakeTaskContext, savedTask, type SavedTask } from "@/lib/tasks/fake-context";
import { runEventImport, type EventImportCheckpoint, type EventImportDeps, type EventImportInput } from "./import-task";
import { classifyPlatformError } from "./import-send";

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
    if (++sends <= (options.failFirst ?? 0)) throw new PlatformError({ kind: "upstream", code: "unavailable", message: "try later", httpStatus: 503 });
    return batches.map((b) => {
      const bad = b.events.findIndex((e) => options.refuse?.(String(e.identityValue)));
      if (bad >= 0) return { stored: false, error: new PlatformError({ kind: "validation", code: "invalid_input", message: "refused", fieldErrors: [{ field: `events[${bad}].identityValue`, message: "unknown customer" }] }) };
      for (const e of b.events) {
        const k = `${e.identityValue}|${e.event}|${e.date}`;
        stored.set(k, (stored.get(k) ?? 0) + 1);
      }
      return { stored: true };
    });
  };
  return { send, stored, sends: () => sends };
}

type Saved = SavedTask<EventImportCheckpoint>;

/** Runs the import in a fake task context; `finish` stores the last appends as the runner does when `run` returns. */
async function importInto(saved: Saved, d: EventImportDeps, options: { dieAfterProgress?: number; abortOnSend?: number } = {}) {
  const task = fakeTaskContext<EventImportInput, EventImportCheckpoint>(input, saved, options);
  const result = await runEventImport(task.ctx, d);
  task.finish();
  return result;
}

const input: EventImportInput = { upload: "u1", name: "events.csv", size: bytes.byteLength, rule: "date", locale: "en" };
const deps = (send: SendBatches): EventImportDeps => ({
  open: () => new Blob([bytes]).stream(),
  send,
  classify: classifyPlatformError,
  describe: describeInEnglish,
  labels: { row: "row", reason: "reason" },
  headerError: (problems) => new Error(`header: ${problems.join(", ")}`),
  message: (at) => `${at.sent} sent, ${at.failed} failed`,
  baseDelayMs: 1,
  sleep: async () => undefined,
});

const invalid = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 97 === 5);
const refusedUser = (id: string) => id === "U-13" || id === "U-600";
const reportOf = (saved: Saved) => parseCsv(new TextDecoder().decode(saved.file));
const textOf = (saved: Saved) => new TextDecoder().decode(saved.file);

describe("the event import as a task", () => {
  it("sends every valid row once and writes the failures in file order", async () => {
    const platform = fakePlatform({ refuse: refusedUser, failFirst: 2 });
    const saved = savedTask<EventImportCheckpoint>();
    const result = await importInto(saved, deps(platform.send));
    expect(result).toEqual({ rows: ROWS, sent: ROWS - invalid.length - 2, failed: invalid.length + 2, invalid: invalid.length, sourceError: null, reportRows: invalid.length + 2, bytesRead: bytes.byteLength });
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
    expect(saved.progress.at(-1)?.message).toBe(`${ROWS - invalid.length - 2} sent, ${invalid.length + 2} failed`);
    expect(saved.checkpoint).toMatchObject({ bytesRead: bytes.byteLength });
  });

  it("resumes after a stop midway: every event stored, the report the same as in one run", async () => {
    const whole = savedTask<EventImportCheckpoint>();
    await importInto(whole, deps(fakePlatform({ refuse: refusedUser }).send));

    const platform = fakePlatform({ refuse: refusedUser });
    const saved = savedTask<EventImportCheckpoint>();
    await expect(importInto(saved, deps(platform.send), { dieAfterProgress: 2 })).rejects.toThrow("process died");
    const stoppedAt = saved.checkpoint!;
    expect(stoppedAt.row).toBeGreaterThan(0);
    expect(stoppedAt.row).toBeLessThan(ROWS);
    const result = await importInto(saved, deps(platform.send));
    expect(result.sent).toBe(ROWS - invalid.length - 2);
    // Each event once at the platform (§2.3), though rows past the checkpoint were sent again.
    expect(platform.stored.size).toBe(ROWS - invalid.length - 2);
    expect(textOf(saved)).toBe(textOf(whole));
  });

  it("a cancelled task stops sending", async () => {
    const platform = fakePlatform();
    const task = fakeTaskContext<EventImportInput, EventImportCheckpoint>(input, savedTask());
    let n = 0;
    const send: SendBatches = async (batches, signal) => {
      if (++n === 3) task.abort.abort();
      return platform.send(batches, signal);
    };
    await expect(runEventImport(task.ctx, deps(send))).rejects.toThrow();
    expect(platform.stored.size).toBeLessThan(ROWS - invalid.length);
  });

  it("the report starts with a BOM and writes the file's own cells through the one CSV writer: a formula comes out guarded", async () => {
    const file = 'identityType,identityValue,event,date,targetName\r\ncrm,U-1,c_visit,,"=HYPERLINK(""http://evil.example"",""open"")"\r\n';
    const saved = savedTask<EventImportCheckpoint>();
    await importInto(saved, { ...deps(fakePlatform().send), open: () => new Blob([file]).stream() });
    expect([...saved.file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(reportOf(saved)[1]).toEqual(["2", "date: required", "crm", "U-1", "c_visit", "", `'=HYPERLINK("http://evil.example","open")`]);
  });

  it("a header that cannot be imported fails the task before anything is sent", async () => {
    const platform = fakePlatform();
    const bad = { ...deps(platform.send), open: () => new Blob(["event,date\r\nx,y\r\n"]).stream() };
    await expect(importInto(savedTask(), bad)).rejects.toThrow(/^header: /);
    expect(platform.sends()).toBe(0);
  });
});
