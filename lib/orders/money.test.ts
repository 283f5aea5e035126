import { describe, expect, it } from "vitest";
import { decimalText, formatMinor, formatMoney, minorOf, moneyInputOf, normalizeMoney, parseMoney, sumMinor, timesQty } from "./money";

const minor = (text: string) => {
  const parsed = parseMoney(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.problem}`);
  return parsed.minor;
};

describe("money as decimal strings in minor units", () => {
  it("0.1 + 0.2 is exactly 0.30", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(formatMinor(sumMinor([minor("0.1"), minor("0.2")]))).toBe("0.30");
  });

  it("19.99 × 3 is exactly 59.97", () => {
    expect(1.1 * 3).not.toBe(3.3);
    expect(formatMinor(timesQty(minor("1.1"), 3))).toBe("3.30");
    expect(formatMinor(timesQty(minor("19.99"), 3))).toBe("59.97");
  });

  it("large values keep every digit (13 integer digits, 2 decimals)", () => {
    expect(formatMinor(sumMinor([minor("9999999999999.99"), minor("0.01")]))).toBe("10000000000000.00");
    expect(formatMinor(timesQty(minor("1234567890123.45"), 7))).toBe("8641975230864.15");
    // What the proxy does with it (a JSON number) gives back the same digits.
    expect(String(Number("9999999999999.99"))).toBe("9999999999999.99");
  });

  it("refuses more than 2 decimals, more than 13 integer digits, negatives and non-numbers", () => {
    expect(parseMoney("1.005")).toEqual({ ok: false, problem: "tooManyDecimals" });
    expect(parseMoney("99999999999999")).toEqual({ ok: false, problem: "tooLarge" });
    expect(parseMoney("-1")).toEqual({ ok: false, problem: "negative" });
    for (const bad of ["", " ", "abc", "1.2.3", "1e5", "12,34", ".", "0x10"]) expect(parseMoney(bad)).toEqual({ ok: false, problem: "invalid" });
  });

  it.each([
    ["12", "12.00"],
    [" 12.5 ", "12.50"],
    [".5", "0.50"],
    ["1,234,567.8", "1234567.80"],
    ["007.10", "7.10"],
    ["-0", "0.00"],
  ])("accepts the usual ways of typing an amount: %j is %s", (typed, normalized) => {
    expect(normalizeMoney(typed)).toBe(normalized);
  });

  it("reads platform numbers exactly, exponent forms included", () => {
    expect(decimalText(12.5)).toBe("12.5");
    expect(decimalText(1e21)).toBe("1000000000000000000000");
    expect(decimalText(1e-7)).toBe("0.0000001");
    expect(decimalText("0.30")).toBe("0.3");
    expect(decimalText(-3)).toBe("-3");
    expect(decimalText(null)).toBeUndefined();
    expect(decimalText("x")).toBeUndefined();
    expect(minorOf(276)).toBe(27600n);
    expect(minorOf(0.1)).toBe(10n);
    expect(minorOf(1.005)).toBeUndefined();
    expect(moneyInputOf(12.5)).toBe("12.50");
    expect(moneyInputOf(1.005)).toBe("1.005");
    expect(moneyInputOf(null)).toBe("");
  });

  it("formats for display with grouping and no float rounding", () => {
    expect(formatMoney("1234567.5", "en")).toBe("1,234,567.50");
    expect(formatMoney(9999999999999.99, "en", "¥")).toBe("¥ 9,999,999,999,999.99");
    expect(formatMoney(1.005, "zh-CN")).toBe("1.005");
    expect(formatMoney(null, "en")).toBe("");
  });
});
