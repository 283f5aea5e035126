import { describe, expect, it } from "vitest";
import { eventIdProblem, eventTimeToUtc, parseDecimal, parseInteger, propertyLimitProblems, summaryTooLong, textFieldProblem } from "./event-fields";
import { planColumns, rowToEvent, type ImportPlan } from "./event-rows";

const BASE = ["identityType", "identityValue", "event", "date"];
const plan = (extra: string[] = []): ImportPlan => planColumns([...BASE, ...extra]).plan!;
const row = (p: ImportPlan, values: Record<string, string>) => rowToEvent(p, p.header.map((h) => values[h] ?? ""));
const good = { identityType: "crm", identityValue: "C-1", event: "c_visit", date: "2026-11-20 16:00:00" };

describe("§2.3 / §8 event field rules", () => {
  it("§8 event id: at most 32 printable ASCII characters; a custom id is c_ and a name", () => {
    expect(eventIdProblem("open_page")).toBeUndefined();
    expect(eventIdProblem("c_" + "x".repeat(30))).toBeUndefined();
    expect(eventIdProblem("c_" + "x".repeat(31))).toEqual({ code: "tooLong", max: 32 });
    expect(eventIdProblem("c_")).toEqual({ code: "eventId" });
    expect(eventIdProblem("c_访问")).toEqual({ code: "eventId" });
    expect(eventIdProblem("open page")).toEqual({ code: "eventId" });
    expect(eventIdProblem("")).toEqual({ code: "required" });
  });

  it("§8 targetId / targetName / tag at most 255 characters (Chinese counts one each); summary 1024 UTF-8 bytes", () => {
    expect(textFieldProblem("targetName", "名".repeat(255))).toBeUndefined();
    expect(textFieldProblem("tag", "t".repeat(256))).toEqual({ code: "tooLong", max: 255 });
    expect(textFieldProblem("targetId", "t".repeat(256))).toEqual({ code: "tooLong", max: 255 });
    expect(summaryTooLong("s".repeat(1024))).toBe(false);
    expect(summaryTooLong("s".repeat(1025))).toBe(true);
    expect(summaryTooLong("名".repeat(342))).toBe(true); // 1026 bytes, 342 characters
    expect(textFieldProblem("source", "x".repeat(5000))).toBeUndefined();
  });

  it("§8 at most 40 string, 3 numeric and 10 money custom properties", () => {
    const kinds = (s: number, n: number, m: number) => [...Array(s).fill("string"), ...Array(n).fill("number"), ...Array(m).fill("money")];
    expect(propertyLimitProblems(kinds(40, 3, 10))).toEqual([]);
    expect(propertyLimitProblems(kinds(41, 4, 11)).map((p) => p.code === "tooManyProperties" && p.kind)).toEqual(["string", "number", "money"]);
  });

  it("§2 event times: UTC+8 unless marked Z, to YYYY-MM-DDTHH:MM:SSZ; impossible dates refused", () => {
    expect(eventTimeToUtc("2026-11-20 16:00:00")).toBe("2026-11-20T08:00:00Z");
    expect(eventTimeToUtc("2026-11-20T16:00")).toBe("2026-11-20T08:00:00Z");
    expect(eventTimeToUtc("2026-11-20 03:00:00")).toBe("2026-11-19T19:00:00Z");
    expect(eventTimeToUtc("2026-11-20T08:00:00Z")).toBe("2026-11-20T08:00:00Z");
    expect(eventTimeToUtc("2026-02-30 10:00:00")).toBeUndefined();
    expect(eventTimeToUtc("2026-13-01 10:00:00")).toBeUndefined();
    expect(eventTimeToUtc("2026-11-20 24:00:00")).toBeUndefined();
    expect(eventTimeToUtc("20/11/2026")).toBeUndefined();
  });

  it("date: the fast path answers exactly as the Date round trip (leap days, month ends, the +8 h shift, years 00xx)", () => {
    // The reference: the rule written with Date, as the slow path does it.
    const reference = (text: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z?)$/.exec(text.trim());
      if (!m) return undefined;
      const [, y, mo, d, h, mi, s = "00", z] = m;
      const local = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!);
      const back = new Date(local);
      if (back.getUTCMonth() !== +mo! - 1 || back.getUTCDate() !== +d! || back.getUTCHours() !== +h! || back.getUTCMinutes() !== +mi! || back.getUTCSeconds() !== +s!) return undefined;
      return new Date(z ? local : local - 8 * 3600_000).toISOString().slice(0, 19) + "Z";
    };
    const texts: string[] = [];
    for (const y of ["0000", "0050", "0099", "0100", "1900", "2000", "2024", "2026", "2100", "9999"]) {
      for (const mo of ["00", "01", "02", "03", "04", "12", "13"]) {
        for (const d of ["00", "01", "28", "29", "30", "31", "32"]) {
          for (const time of ["00:00:00", "07:59:59", "08:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60", "09:30"]) {
            texts.push(`${y}-${mo}-${d} ${time}`, `${y}-${mo}-${d}T${time}Z`);
          }
        }
      }
    }
    for (const text of texts) expect([text, eventTimeToUtc(text)]).toEqual([text, reference(text)]);
  });

  it("numbers: integers and decimals typed as text, nothing else", () => {
    expect(parseInteger(" 12 ")).toBe(12);
    expect(parseInteger("1.5")).toBeUndefined();
    expect(parseInteger("1e3")).toBeUndefined();
    expect(parseDecimal("19.90")).toBe(19.9);
    expect(parseDecimal("1,000")).toBeUndefined();
  });
});

describe("CSV columns of an event import", () => {
  it("needs identityType, identityValue, event and date, and types property columns by suffix", () => {
    expect(planColumns(["identityType", "event"]).problems.map((p) => p.code === "missingColumn" && p.column)).toEqual(["identityValue", "date"]);
    const p = plan(["targetId", "color", "size:string", "visits:number", "price:money"]);
    expect(p.columns.map((c) => `${c.name}:${c.kind}`)).toEqual([
      "identityType:field", "identityValue:field", "event:field", "date:field", "targetId:field", "color:string", "size:string", "visits:number", "price:money",
    ]);
  });

  it("refuses duplicate, malformed and reserved column names and more than §8 allows", () => {
    expect(planColumns([...BASE, "event"]).problems).toEqual([{ code: "duplicateColumn", column: "event" }]);
    expect(planColumns([...BASE, "price:euro", "two words", "score:number"]).problems.map((p) => p.code)).toEqual(["badColumn", "badColumn", "badColumn"]);
    const numbers = ["a:number", "b:number", "c:number", "d:number"];
    expect(planColumns([...BASE, ...numbers]).problems).toEqual([{ code: "tooManyProperties", kind: "number", max: 3 }]);
  });

  it("maps a row to a batchPushEvents item with typed values, leaving empty cells out", () => {
    const p = plan(["score", "targetName", "color", "visits:number", "price:money", "longitude", "city", "externalId"]);
    expect(row(p, { ...good, score: "5", targetName: "首页", color: "红", "visits:number": "3", "price:money": "19.90", longitude: "121.47", city: "上海" }).event).toEqual({
      identityType: "crm", identityValue: "C-1", event: "c_visit", date: "2026-11-20T08:00:00Z", score: 5, targetName: "首页", color: "红", visits: 3, price: 19.9, longitude: 121.47, city: "上海",
    });
  });

  it("names every bad cell of a row by its column", () => {
    const p = plan(["score", "visits:number", "price:money", "latitude", "tag"]);
    const r = row(p, { identityType: "crm", identityValue: "", event: "c_visit", date: "tomorrow", score: "high", "visits:number": "1.5", "price:money": "¥3", latitude: "91", tag: "t".repeat(256) });
    expect(r.event).toBeUndefined();
    expect(r.problems.map((x) => `${x.column}:${x.code}`)).toEqual(["identityValue:required", "date:date", "score:integer", "visits:number:integer", "price:money:decimal", "latitude:range", "tag:tooLong"]);
  });

  it("§2.3 custom properties and location fields only on c_ events (a built-in event would drop them)", () => {
    const p = plan(["color", "city"]);
    expect(row(p, { ...good, event: "open_page", color: "red" }).problems).toEqual([{ code: "customOnly", column: "color" }]);
    expect(row(p, { ...good, event: "open_page" }).event).toMatchObject({ event: "open_page" });
  });

  it("§8 identity type at most 32, value at most 128 characters", () => {
    const p = plan();
    expect(row(p, { ...good, identityType: "t".repeat(33) }).problems[0]).toMatchObject({ column: "identityType", code: "tooLong", max: 32 });
    expect(row(p, { ...good, identityValue: "v".repeat(129) }).problems[0]).toMatchObject({ column: "identityValue", code: "tooLong", max: 128 });
  });
});

describe("cells past the header", () => {
  it("flag the row instead of dropping the cell (an unquoted comma in a value)", () => {
    const p = plan(["targetName"]);
    const fields = ["crm", "C-1", "c_visit", "2026-11-20 16:00:00", "试驾", "上海"];
    const mapped = rowToEvent(p, fields);
    expect(mapped.event).toBeUndefined();
    expect(mapped.problems).toEqual([{ code: "extraCells", count: 1, max: 5, column: "#6" }]);
  });

  it("empty trailing cells (a trailing comma) are no problem", () => {
    const p = plan();
    expect(rowToEvent(p, ["crm", "C-1", "c_visit", "2026-11-20 16:00:00", ""]).event).toBeDefined();
  });
});

describe("the extra-cells problem is worded with its count", () => {
  it("in both languages", async () => {
    const { eventProblemText } = await import("./event-problem-text");
    const { translate } = await import("@/lib/i18n/messages");
    const problem = { code: "extraCells", count: 2, max: 5 } as const;
    expect(eventProblemText(problem, (k, v) => translate("en", k, v))).toMatch(/^2 cells past the header's 5 columns/);
    expect(eventProblemText(problem, (k, v) => translate("zh-CN", k, v))).toContain("多出 2 个单元格");
  });
});
