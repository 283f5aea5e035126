import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "@/lib/events/csv";
import { csvField, csvRecord, csvRecordCounter, UTF8_BOM } from "./csv";

describe("CSV encoding (RFC 4180)", () => {
  it("quotes fields with a comma, quote, CR or LF and doubles quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
  });

  it("ends records with CRLF and writes empty for null", () => {
    expect(csvRecord(["1", null, undefined, "x"])).toBe("1,,,x\r\n");
  });

  it("writes Chinese text as it is (the BOM makes Excel read UTF-8)", () => {
    expect(UTF8_BOM).toBe("\uFEFF");
    expect(new TextEncoder().encode(UTF8_BOM)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(csvRecord(["阿尔法零售", "上海市"])).toBe("阿尔法零售,上海市\r\n");
  });

  it("guards text that a spreadsheet would run as a formula: = + - @ tab CR", () => {
    expect(csvField("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvField("+86 13800000000")).toBe("'+86 13800000000");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1")).toBe("'\t=1");
    expect(csvField("\r=1")).toBe("\"'\r=1\"");
    expect(csvField("a=1")).toBe("a=1");
  });

  it("writes numbers and booleans as they are (a negative number is not a formula)", () => {
    expect(csvField(-5)).toBe("-5");
    expect(csvField(2)).toBe("2");
    expect(csvField(false)).toBe("false");
    expect(csvField(9007199254740993n)).toBe("9007199254740993");
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
