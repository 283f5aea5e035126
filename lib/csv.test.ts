import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "@/lib/events/csv";
import { csvField, csvRecord, csvRecordCounter, UTF8_BOM } from "./csv";

describe("CSV encoding (RFC 4180)", () => {
  it.each([
    ["quotes a comma, quote, CR or LF, and doubles quotes", ["plain", "a,b", 'say "hi"', "two\nlines", "cr\rhere"], ["plain", '"a,b"', '"say ""hi"""', '"two\nlines"', '"cr\rhere"']],
    ["quotes leading or trailing white space (spreadsheets would trim it)", [" a", "b ", "\uFEFFc"], ['" a"', '"b "', '"\uFEFFc"']],
    ["guards text a spreadsheet would run as a formula: = + - @ tab CR", ['=HYPERLINK("http://x")', "+86 13800000000", "-1+2", "@SUM(A1)", "\t=1", "\r=1", "a=1"], [`"'=HYPERLINK(""http://x"")"`, "'+86 13800000000", "'-1+2", "'@SUM(A1)", "'\t=1", `"'\r=1"`, "a=1"]],
    ["writes numbers and booleans as they are (a negative number is not a formula)", [-5, 2, false, 9007199254740993n], ["-5", "2", "false", "9007199254740993"]],
  ] as Array<[string, unknown[], string[]]>)("%s", (_rule, values, written) => {
    expect(values.map(csvField)).toEqual(written);
  });

  it("ends records with CRLF, writes empty for null, and Chinese text as it is (the BOM makes Excel read UTF-8)", () => {
    expect(csvRecord(["1", null, undefined, "x"])).toBe("1,,,x\r\n");
    expect(new TextEncoder().encode(UTF8_BOM)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(csvRecord(["阿尔法零售", "上海市"])).toBe("阿尔法零售,上海市\r\n");
  });

  it("round-trips any text through a CSV reader (the guard aside)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 5 }), (values) => {
        const [record] = parseCsv(csvRecord(values));
        expect(record).toEqual(values.map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("counting records of CSV arriving in pieces", () => {
  it("counts line ends outside quotes, across chunk boundaries", () => {
    const text = csvRecord(["id", "remark"]) + csvRecord(["1", "two\r\nlines, \"quoted\""]) + csvRecord(["2", "x"]);
    for (let cut = 0; cut <= text.length; cut++) {
      const counter = csvRecordCounter();
      counter.push(text.slice(0, cut));
      counter.push(text.slice(cut));
      expect(counter.count, `cut at ${cut}`).toBe(3);
    }
  });
});
