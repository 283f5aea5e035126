import { describe, expect, it } from "vitest";
import { compileMessage, messageArguments } from "./compile";
import { renderMessage } from "./icu";
import { LOCALES } from "./locales";
import { sourceMessages } from "./messages";

const render = (text: string, locale: string, values?: Record<string, string | number>) => renderMessage(compileMessage(text), locale, values);

describe("ICU messages", () => {
  it("choose the plural wording by the language's rules: 1 row, 2 rows; Chinese has one form", () => {
    const en = "{count, plural, one {# duplicate left out} other {# duplicates left out}}";
    expect(render(en, "en", { count: 1 })).toBe("1 duplicate left out");
    expect(render(en, "en", { count: 0 })).toBe("0 duplicates left out");
    expect(render(en, "en", { count: 21 })).toBe("21 duplicates left out");
    expect(render(en, "en", { count: 10000 })).toBe("10,000 duplicates left out");
    expect(render("{count, plural, other {# 个重复项已略去}}", "zh-CN", { count: 1 })).toBe("1 个重复项已略去");
  });

  it("an exact =n case wins, offset and nested select and arguments work", () => {
    const text = "{n, plural, =0 {nothing} one {one {kind}} other {# {kind, select, tag {tags} other {things}}}}";
    expect(render(text, "en", { n: 0, kind: "tag" })).toBe("nothing");
    expect(render(text, "en", { n: 1, kind: "tag" })).toBe("one tag");
    expect(render(text, "en", { n: 5, kind: "tag" })).toBe("5 tags");
    expect(render(text, "en", { n: 5, kind: "x" })).toBe("5 things");
    expect(render("{n, plural, offset:1 one {you and # other} other {you and # others}}", "en", { n: 2 })).toBe("you and 1 other");
  });

  it("formats counts given as numbers in the language's digits; a count given as text is no count", () => {
    expect(render("{count, number} selected", "en", { count: 1234567 })).toBe("1,234,567 selected");
    expect(render("已选择 {count, number} 个", "zh-CN", { count: 12345 })).toBe("已选择 12,345 个");
    expect(render("{count, plural, one {# row} other {# rows}}", "en", { count: 2500 })).toBe("2,500 rows");
    // No digits are stripped back out of pre-formatted text: the caller passes the number.
    expect(render("{count, plural, one {# row} other {# rows}}", "en", { count: "2,500" })).toBe("{count}");
    expect(render("{count, number} selected", "en", { count: "12" })).toBe("{count} selected");
    expect(() => compileMessage("{count, number, percent}")).toThrow(/unsupported/);
  });

  it("has no '…One' twin of a counted message: the plural chooses the wording of 1", () => {
    for (const locale of LOCALES) {
      const keys = Object.keys(sourceMessages[locale]);
      const twins = keys.filter((key) => key.endsWith("One") && keys.includes(key.slice(0, -3)) && /\{count[,}]/.test(sourceMessages[locale][key.slice(0, -3) as keyof (typeof sourceMessages)[typeof locale]]));
      expect(twins, locale).toEqual([]);
    }
  });

  it("leaves a missing value visible, and an apostrophe in prose stays", () => {
    expect(render("Page {page} of {pages}", "en", { page: 2 })).toBe("Page 2 of {pages}");
    expect(render("{count, plural, one {# row} other {# rows}}", "en")).toBe("{count}");
    expect(render("The customer's email", "en")).toBe("The customer's email");
  });

  it("refuses a broken message and a format the console does not render", () => {
    expect(() => compileMessage("{count, plural, one {# row}}")).toThrow(/ICU/);
    expect(() => compileMessage("{when, date, short}")).toThrow(/unsupported/);
    expect(messageArguments("{a} {n, plural, one {# {b}} other {#}}")).toEqual(["a", "b", "n"]);
  });

  it("every message of the console compiles, and one without plural or select reads as written with its {name}s filled", () => {
    for (const locale of LOCALES) {
      for (const [key, text] of Object.entries(sourceMessages[locale])) {
        const compiled = compileMessage(text);
        if (/,\s*(plural|select|selectordinal)\s*,/.test(text) || /,\s*number\s*\}/.test(text)) continue;
        const names = messageArguments(text);
        const values = Object.fromEntries(names.map((name) => [name, `<${name}>`]));
        const expected = text.replace(/\{(\w+)\}/g, (_, name: string) => `<${name}>`);
        expect(renderMessage(compiled, locale, values), `${locale} ${key}`).toBe(expected);
      }
    }
  });
});
