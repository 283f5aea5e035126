import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createAppCall } from "@/lib/api/browser-fetch";
import { routeClientDeps } from "@/lib/proxy/testing/app-client";
import { startTestSandbox } from "@/lib/platform/testing/sandbox";
import { sandboxCalls, sandboxToken } from "@/lib/platform/testing/sandbox-control";
import { sandboxProxyDeps } from "@/lib/proxy/testing/sandbox-deps";
import { describeInEnglish } from "./event-csv";
import { handleEventImport } from "./import-route";
import { importThrough, startEventImport } from "./start-import";

/**
 * The event import end to end without a browser: the importer of the /events page (CSV reader,
 * scheduler, the browser's poster) → the app's import route → the running Platform Sandbox, with a
 * real token; results checked through the sandbox's own API.
 */

const APP = "http://app.test";
const { sandbox, control } = await startTestSandbox();
afterAll(() => sandbox.close());
afterEach(async () => {
  await control("/faults", { faults: [] });
});

const token = await sandboxToken(control);
const deps = sandboxProxyDeps(sandbox.urls.alpha!, token);

/** The browser's poster, its requests handled by the route as Next would, from the app's own origin. */
const post = createAppCall(routeClientDeps((request) => handleEventImport(request, deps), APP));

async function batchCalls(): Promise<number> {
  return (await sandboxCalls(control))["POST /v1/collector/batchPushEvents"] ?? 0;
}

/** Events of one type stored for the tenant (§4.3: the last month, these are this week's; 1000 a page, by id). */
async function stored(event: string): Promise<number> {
  let count = 0;
  let from = "";
  for (;;) {
    const res = await fetch(`${sandbox.urls.alpha}/v1/customerevents?event=${event}&max=1000&sidx=id${from}&access_token=${token}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const ids = [...text.matchAll(/"id":(\d+)/g)].map((m) => BigInt(m[1]!));
    count += ids.length;
    if (ids.length < 1000) return count;
    from = `&idFrom=${ids.reduce((a, b) => (a > b ? a : b)) + 1n}`;
  }
}

const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const csvOf = (lines: string[]) => new Blob([`${lines.join("\r\n")}\r\n`]).stream();

describe("event import through the app's route into the sandbox", () => {
  it("stores every good row of a 1,250-row file in requests of up to ten batches; the one row the platform refuses fails alone", async () => {
    // §2.3: a custom property's type is fixed on first use; `visits` becomes a string property here.
    const first = await fetch(`${sandbox.urls.alpha}/v1/collector/pushevent?access_token=${token}`, {
      method: "POST",
      body: JSON.stringify({ identityType: "route", identityValue: "first", event: "c_route_test", date: `${day}T01:00:00Z`, visits: "many" }),
    });
    expect(first.status).toBe(200);
    // Only row 700 gives a (numeric) visits, which the platform refuses; the client cannot know.
    const rows = Array.from({ length: 1250 }, (_, i) =>
      [`route-${i % 300}`, `U-${i}`, "c_route_test", `${day} 10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`, i === 698 ? "3" : ""].join(","),
    );
    const before = await batchCalls();
    const opened = await startEventImport({
      stream: csvOf(["identityType,identityValue,event,date,visits:number", ...rows]),
      send: importThrough(post),
      describe: describeInEnglish,
      rule: "date",
    });
    if (!("run" in opened)) throw new Error(`header refused: ${JSON.stringify(opened.problems)}`);
    const result = await opened.run.done;
    expect(result).toMatchObject({ rowsRead: 1250, sent: 1249, failed: 1, state: "done" });
    const report = opened.report.parts().join("");
    expect(report).toMatch(/\r\n700,"?visits: visits is a string property of c_route_test/);
    expect(await stored("c_route_test")).toBe(1 + 1249);
    // 13 batches of 100 or fewer, the refused one once more without its bad row.
    expect((await batchCalls()) - before).toBe(14);
  });

  it("503s from the platform are retried by the importer until every row is stored, none twice", async () => {
    await control("/faults", { faults: [{ path: "/v1/collector/batchPushEvents", method: "POST", errorRate: 0.5, status: 503 }] });
    // 20 batches at a 50% error rate: all of them pass at once with a chance of 1 in a million.
    const rows = Array.from({ length: 2000 }, (_, i) => `retry,R-${i},c_route_retry,${day} 11:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`);
    const opened = await startEventImport({
      stream: csvOf(["identityType,identityValue,event,date", ...rows]),
      send: importThrough(post),
      describe: describeInEnglish,
      rule: "date",
      baseDelayMs: 5,
      maxAttempts: 30,
    });
    if (!("run" in opened)) throw new Error("header refused");
    const result = await opened.run.done;
    expect(result).toMatchObject({ sent: 2000, failed: 0 });
    expect(result.retries).toBeGreaterThan(0);
    expect(await stored("c_route_retry")).toBe(2000);
  });
});
