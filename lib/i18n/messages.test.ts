import { describe, expect, it } from "vitest";
import { messageArguments } from "./compile";
import type { FeatureMessages } from "./feature-messages";
import { FEATURES, joinSections, sourceMessages, translate, type MessageKey } from "./messages";
import { LOCALES, matchLocale, negotiateLocale, pickLocale } from "./locales";

const placeholders = messageArguments;
/** The same in both languages on purpose: names of languages and of authentication schemes, and "UTC+8". */
const SAME_IN_BOTH = ["activity.mode.basic", "activity.mode.oauth2", "customers.timeHelp", "language.en", "language.zh-CN"];

describe("the feature dictionaries", () => {
  for (const [name, feature] of Object.entries(FEATURES) as [string, FeatureMessages<string>][]) {
    it(`${name}: the same keys, non-empty, the same placeholders and real Chinese in every language`, () => {
      const english = Object.keys(feature.en).sort();
      for (const locale of LOCALES) {
        expect(Object.keys(feature[locale]).sort(), locale).toEqual(english);
        for (const key of english) {
          expect(feature[locale][key]!.trim(), `${locale} ${key}`).not.toBe("");
          expect(placeholders(feature[locale][key]!), `${locale} ${key}`).toEqual(placeholders(feature.en[key]!));
        }
      }
      expect(english.filter((k) => feature.en[k] === feature["zh-CN"][k] && !SAME_IN_BOTH.includes(k))).toEqual([]);
    });
  }

  it("join into one dictionary per language, holding every feature's strings; a key defined twice throws", () => {
    for (const feature of Object.values(FEATURES)) {
      for (const locale of LOCALES) for (const [key, text] of Object.entries(feature[locale])) expect((sourceMessages[locale] as Record<string, string>)[key], key).toBe(text);
    }
    expect(Object.keys(sourceMessages["zh-CN"]).sort()).toEqual(Object.keys(sourceMessages.en).sort());
    expect(() => joinSections([{ "a.b": "x" }, { "a.b": "y" }])).toThrow("a.b");
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(translate("en", "list.pageOf", { page: 2, pages: 9 })).toBe("Page 2 of 9");
    expect(translate("zh-CN", "list.pageOf", { page: 2, pages: 9 })).toBe("第 2 页，共 9 页");
    expect(translate("en", "list.pageOf", { page: 2 })).toBe("Page 2 of {pages}");
    expect(translate("zh-CN", "eventError.tooLong", { max: 32 })).toBe("最多 32。");
    expect(translate("en", "tags.title")).toBe("Tags");
    expect(translate("zh-CN", "activity.manyNew", { n: 3 })).toBe("收到 3 条新通知。");
  });

  it("has no message the same in both languages but those meant to be", () => {
    const same = (Object.keys(sourceMessages.en) as MessageKey[]).filter((k) => sourceMessages.en[k] === sourceMessages["zh-CN"][k]);
    expect(same.sort()).toEqual(SAME_IN_BOTH);
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
