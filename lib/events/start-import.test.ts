import { describe, expect, it } from "vitest";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
import { parseCsv } from "./csv";
import { describeInEnglish } from "./event-csv";
import type { AppCall } from "@/lib/api/browser-fetch";
import type { SendBatches } from "./import-run";
import { classifyApiError, importThrough, startEventImport } from "./start-import";

const streamOf = (text: string) => new Blob([text]).stream();

describe("an event import from CSV to batchPushEvents", () => {
  it("sends the valid rows with the md5 rule in commonProps and reports the others with their cells", async () => {
    const bodies: { events: unknown[]; commonProps?: unknown }[] = [];
    const csv = "identityType,identityValue,event,date,visits:number\r\ncrm,A,c_visit,2026-11-20 10:00:00,2\r\ncrm,B,c_visit,2026-11-20 10:00:00,two\r\ncrm,C,c_visit,2026-11-20 10:00:00,\r\n";
    const send: SendBatches = async (batches) => {
      bodies.push(...batches);
      return batches.map(() => ({ stored: true }));
    };
    const started = await startEventImport({ stream: streamOf(csv), send, describe: describeInEnglish, rule: "md5" });
    if (!("run" in started)) throw new Error("header refused");
    const result = await started.run.done;
    expect(result).toMatchObject({ rowsRead: 3, sent: 2, failed: 1 });
    expect(bodies).toEqual([{ events: [expect.objectContaining({ identityValue: "A", visits: 2 }), expect.objectContaining({ identityValue: "C" })], commonProps: { externalIdGenerator: "md5" } }]);
    expect(parseCsv(started.report.parts().join(""))).toEqual([
      ["row", "reason", "identityType", "identityValue", "event", "date", "visits:number"],
      ["3", "visits:number: integer", "crm", "B", "c_visit", "2026-11-20 10:00:00", "two"],
    ]);
  });

  it("keeps the scheduler's defaults (4 in flight, retries) when the page passes no settings", async () => {
    const csv = ["identityType,identityValue,event,date", ...Array.from({ length: 1000 }, (_, i) => `crm,U-${i},open_page,2026-11-20 10:00:00`)].join("\r\n");
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const started = await startEventImport({
      stream: streamOf(csv),
      describe: describeInEnglish,
      rule: "date",
      baseDelayMs: 1,
      send: async (batches) => {
        const call = ++calls;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        if (call === 1) throw new ApiError({ status: 502, code: "upstream", message: "bad gateway" });
        return batches.map(() => ({ stored: true }));
      },
    });
    if (!("run" in started)) throw new Error("header refused");
    expect(await started.run.done).toMatchObject({ sent: 1000, failed: 0, retries: 1 });
    expect(most).toBe(4);
  });

  it("a bad header starts nothing", async () => {
    const started = await startEventImport({ stream: streamOf("event,date\r\n"), send: async () => [], describe: describeInEnglish, rule: "date" });
    expect("run" in started).toBe(false);
    expect(started.problems.map((p) => p.code)).toEqual(["missingColumn", "missingColumn"]);
  });

  it("retries network, 429 and 5xx answers of the proxy; pauses for sign-in; fails the rest", () => {
    expect(classifyApiError(new ApiError({ status: 0, code: "network_error", message: "x" })).transient).toBe(true);
    expect(classifyApiError(new ApiError({ status: 429, code: "rate_limited", message: "x" })).transient).toBe(true);
    expect(classifyApiError(new ApiError({ status: 500, code: "internal_error", message: "x" })).transient).toBe(true);
    expect(classifyApiError(new TypeError("fetch failed")).transient).toBe(true);
    expect(classifyApiError(new ReauthRequiredError({ message: "x", redirect: "/r" })).pause).toBe(true);
    expect(classifyApiError(new ApiError({ status: 429, code: "rate_limited", message: "x", retryAfterSeconds: 7 })).retryAfterSeconds).toBe(7);
    const refused = classifyApiError(new ApiError({ status: 422, code: "400", message: "bad", fieldErrors: [{ field: "events[1].date", message: "m" }] }));
    expect(refused).toEqual({ transient: false, retryAfterSeconds: undefined, fieldErrors: [{ field: "events[1].date", message: "m" }], message: "bad" });
  });

  it("posts the batches to the app's import route and reads one outcome per batch", async () => {
    const posted: { name: string; input: unknown }[] = [];
    const post = async <T,>(name: string, input: unknown): Promise<T> => {
      posted.push({ name, input });
      return {
        results: [
          { status: "stored" },
          { status: "failed", httpStatus: 502, error: { code: "503", message: "unavailable", retryAfterSeconds: 2 } },
          { status: "not_sent" },
        ],
      } as T;
    };
    const batches = [1, 2, 3].map((i) => ({ events: [{ identityType: "crm", identityValue: `U-${i}`, event: "open_page", date: "2026-11-20T02:00:00Z" }] }));
    const outcomes = await importThrough(post as unknown as AppCall)(batches, new AbortController().signal);
    expect(posted).toEqual([{ name: "events.import", input: { body: { batches } } }]);
    expect(outcomes[0]).toEqual({ stored: true });
    expect(outcomes[2]).toEqual({ stored: false });
    const failed = outcomes[1] as { stored: false; error: ApiError };
    expect(failed.error).toBeInstanceOf(ApiError);
    expect(classifyApiError(failed.error)).toEqual({ transient: true, retryAfterSeconds: 2, fieldErrors: [], message: "unavailable" });
  });
});
