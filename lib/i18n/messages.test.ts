import { describe, expect, it } from "vitest";
import { messages, translate, type MessageKey } from "./messages";
import { LOCALES, matchLocale, negotiateLocale, pickLocale } from "./locales";

describe("the message dictionary", () => {
  it("has the same keys in every language", () => {
    const english = Object.keys(messages.en).sort();
    for (const locale of LOCALES) expect(Object.keys(messages[locale]).sort(), locale).toEqual(english);
  });

  it("has no empty message and the same placeholders in every language", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(messages.en) as MessageKey[]) {
      for (const locale of LOCALES) {
        expect(messages[locale][key].trim(), `${locale} ${key}`).not.toBe("");
        expect(placeholders(messages[locale][key]), `${locale} ${key}`).toEqual(placeholders(messages.en[key]));
      }
    }
  });

  it("translates Chinese for real (not English copied over), except names of languages", () => {
    const same = (Object.keys(messages.en) as MessageKey[]).filter((k) => messages.en[k] === messages["zh-CN"][k]);
    expect(same.sort()).toEqual(["customers.timeHelp", "language.en", "language.zh-CN"]);
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(translate("en", "list.pageOf", { page: 2, pages: 9 })).toBe("Page 2 of 9");
    expect(translate("zh-CN", "list.pageOf", { page: 2, pages: 9 })).toBe("第 2 页，共 9 页");
    expect(translate("en", "list.pageOf", { page: 2 })).toBe("Page 2 of {pages}");
  });
});

describe("choosing the language", () => {
  it("matches language tags", () => {
    expect(matchLocale("zh")).toBe("zh-CN");
    expect(matchLocale("zh-Hans-CN")).toBe("zh-CN");
    expect(matchLocale("en-GB")).toBe("en");
    expect(matchLocale("zh-TW")).toBeUndefined();
    expect(matchLocale("fr")).toBeUndefined();
  });

  it("honours Accept-Language order and q-values", () => {
    expect(negotiateLocale("zh-CN,zh;q=0.9,en;q=0.8")).toBe("zh-CN");
    expect(negotiateLocale("fr-FR, en;q=0.5, zh;q=0.7")).toBe("zh-CN");
    expect(negotiateLocale("de, fr")).toBeUndefined();
    expect(negotiateLocale("zh;q=0, en")).toBe("en");
  });

  it("prefers the user's choice, then the platform, then the browser, then English", () => {
    expect(pickLocale({ cookie: "en", platform: "zh-CN", acceptLanguage: "zh" })).toBe("en");
    expect(pickLocale({ platform: "zh-CN", acceptLanguage: "en" })).toBe("zh-CN");
    expect(pickLocale({ acceptLanguage: "zh-CN" })).toBe("zh-CN");
    expect(pickLocale({ cookie: "xx", acceptLanguage: "de" })).toBe("en");
  });
});
