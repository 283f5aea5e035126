import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv";
import { describeInEnglish, openEventCsv } from "./event-csv";
import { FailureReport } from "./failure-report";

/** A byte stream cut in small pieces, as File.stream() delivers a file (pieces may split a character). */
function streamOf(text: string, piece = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe("an event CSV from a byte stream", () => {
  it("plans the header, maps rows, words invalid ones, skips blank lines; BOM, CRLF and Chinese split across pieces", async () => {
    const text = '\uFEFFidentityType,identityValue,event,date,targetName\r\ncrm,C-1,open_page,2026-11-20 16:00:00,"首页,新"\r\n\r\ncrm,C-2,open_page,yesterday,x\r\n';
    const opened = await openEventCsv(streamOf(text, 5), describeInEnglish);
    expect(opened.problems).toEqual([]);
    const rows = await collect(opened.rows);
    expect(rows.map((r) => r.row)).toEqual([2, 4]);
    expect(rows[0]!.event).toMatchObject({ identityValue: "C-1", targetName: "首页,新", date: "2026-11-20T08:00:00Z" });
    expect(rows[1]!.reason).toBe("date: date");
    expect(rows[1]!.values).toEqual(["crm", "C-2", "open_page", "yesterday", "x"]);
    expect(rows[1]!.bytesRead).toBe(new TextEncoder().encode(text).length);
  });

  it("a header without the required columns yields no rows", async () => {
    const opened = await openEventCsv(streamOf("a,b\r\n1,2\r\n"), describeInEnglish);
    expect(opened.plan).toBeUndefined();
    expect(opened.problems.length).toBeGreaterThan(0);
    expect(await collect(opened.rows)).toEqual([]);
  });
});

describe("the failure report", () => {
  it("lists row number, reason and the original cells under the file's header, as CSV with a BOM", () => {
    const report = new FailureReport(["identityType", "identityValue"]);
    report.add(7, ["crm", 'say "hi", 你好'], "identityValue: too long");
    const text = report.parts().join("");
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(parseCsv(text)).toEqual([["row", "reason", "identityType", "identityValue"], ["7", "identityValue: too long", "crm", 'say "hi", 你好']]);
  });

  it("writes the user's own cells through the one CSV writer: a formula comes out guarded", () => {
    const report = new FailureReport(["identityType", "targetName"]);
    report.add(3, ["crm", '=HYPERLINK("http://evil.example","open")'], "date: Required");
    expect(parseCsv(report.parts().join(""))[1]).toEqual(["3", "date: Required", "crm", `'=HYPERLINK("http://evil.example","open")`]);
  });

  it("keeps at most maxRows lines and still counts all", () => {
    const report = new FailureReport(["a"], 2);
    for (let i = 0; i < 5; i++) report.add(i, ["x"], "r");
    expect(report).toMatchObject({ count: 5, kept: 2, truncated: true });
  });
});
