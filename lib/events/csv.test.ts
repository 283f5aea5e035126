import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvRecord } from "@/lib/csv";
import { CsvError, CsvParser, parseCsv } from "./csv";

/** Feeds `text` in pieces cut at `cuts` (positions), as a stream would. */
function parseInPieces(text: string, cuts: number[]): string[][] {
  const parser = new CsvParser();
  const out: string[][] = [];
  let last = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out.push(...parser.push(text.slice(last, cut)));
    last = cut;
  }
  out.push(...parser.push(text.slice(last)), ...parser.end());
  return out;
}

describe("CSV parser (RFC 4180)", () => {
  it("splits fields and records; CRLF, LF and CR end a record", () => {
    expect(parseCsv("a,b\r\nc,d\ne,f\rg,h")).toEqual([["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]);
    expect(parseCsv("a,b\r\n")).toEqual([["a", "b"]]);
    expect(parseCsv("")).toEqual([]);
  });

  it("quoted fields hold commas, line breaks and doubled quotes", () => {
    expect(parseCsv('"a,1","say ""hi""","two\r\nlines"\r\nx,"",y')).toEqual([["a,1", 'say "hi"', "two\r\nlines"], ["x", "", "y"]]);
  });

  it("keeps empty fields and blank lines (a blank line is one empty field, so row numbers match a spreadsheet)", () => {
    expect(parseCsv("a,,\r\n\r\nb")).toEqual([["a", "", ""], [""], ["b"]]);
  });

  it("drops a byte-order mark at the start only, and keeps Chinese text", () => {
    expect(parseCsv("\uFEFF名字,城市\r\n张三,\"上海,浦东\"\r\n")).toEqual([["名字", "城市"], ["张三", "上海,浦东"]]);
    expect(parseCsv("a,\uFEFFb")).toEqual([["a", "\uFEFFb"]]);
  });

  it("is lenient like a spreadsheet with stray quotes", () => {
    expect(parseCsv('ab"c,"d"e')).toEqual([['ab"c', "de"]]);
  });

  it("a CRLF split between two pieces is one line break", () => {
    expect(parseInPieces("a\r\nb", [2])).toEqual([["a"], ["b"]]);
    expect(parseInPieces('"x""y"\r\nz', [2, 3, 6, 7])).toEqual([['x"y'], ["z"]]);
  });

  it("refuses a quoted field that never closes, and a record beyond the memory bound", () => {
    expect(() => parseCsv('a,"open\r\nb')).toThrow(CsvError);
    const parser = new CsvParser({ maxRecordChars: 10 });
    expect(() => parser.push('"' + "x".repeat(20))).toThrow(/longer than 10/);
    expect(new CsvParser({ maxRecordChars: 10 }).push("12345,\r\n12345,\r\n")).toHaveLength(2);
  });

  it("property: what csvRecord writes parses back the same (the formula guard aside), however the text is cut into pieces", () => {
    const field = fc.string({ unit: fc.constantFrom("a", "字", ",", '"', "\r", "\n", " ", "x", "\uFEFF") });
    const records = fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 })
      // A record of one empty field is written as a blank line, which reads back as the same record.
      .map((rs) => rs);
    fc.assert(
      fc.property(records, fc.array(fc.nat(), { maxLength: 6 }), (rs, rawCuts) => {
        const text = rs.map(csvRecord).join("");
        const cuts = rawCuts.map((c) => c % (text.length + 1));
        expect(parseInPieces(text, cuts)).toEqual(rs.map((r) => r.map((f) => (f.startsWith("\r") ? `'${f}` : f))));
      }),
      { numRuns: 300 },
    );
  });
});
