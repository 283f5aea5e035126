import { describe, expect, it } from "vitest";
import { describeInEnglish, openEventCsv } from "./event-csv";

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
