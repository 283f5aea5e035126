import { describe, expect, it } from "vitest";
import { eventImportMessages } from "./events/import";
import { recordEventMessages } from "./events/record";
import { eventRuleMessages } from "./events/rules";
import type { FeatureMessages } from "./feature-messages";
import { LOCALES } from "./locales";
import { joinSections, messages, translate } from "./messages";
import { ordersMessages } from "./orders-messages";
import { tagsMessages } from "./tags-messages";

const FEATURES: Record<string, FeatureMessages<string>> = { tagsMessages, ordersMessages, eventRuleMessages, recordEventMessages, eventImportMessages };
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("feature dictionaries", () => {
  for (const [name, dictionary] of Object.entries(FEATURES)) {
    it(`${name}: the same keys, non-empty, the same placeholders and real Chinese in every language`, () => {
      const english = Object.keys(dictionary.en).sort();
      for (const locale of LOCALES) {
        expect(Object.keys(dictionary[locale]).sort(), locale).toEqual(english);
        for (const key of english) {
          expect(dictionary[locale][key]!.trim(), `${locale} ${key}`).not.toBe("");
          expect(placeholders(dictionary[locale][key]!), `${locale} ${key}`).toEqual(placeholders(dictionary.en[key]!));
        }
      }
      expect(english.filter((k) => dictionary.en[k] === dictionary["zh-CN"][k])).toEqual([]);
    });
  }

  it("the one dictionary holds every feature's strings; a key defined twice throws", () => {
    for (const dictionary of Object.values(FEATURES)) {
      for (const locale of LOCALES) for (const [key, text] of Object.entries(dictionary[locale])) expect((messages[locale] as Record<string, string>)[key], key).toBe(text);
    }
    expect(() => joinSections([{ "a.b": "x" }, { "a.b": "y" }])).toThrow("a.b");
  });

  it("translates feature strings through the one dictionary", () => {
    expect(translate("zh-CN", "eventError.tooLong", { max: 32 })).toBe("最多 32。");
    expect(translate("zh-CN", "recordEvent.title")).toBe("记录事件");
    expect(translate("en", "tags.title")).toBe("Tags");
  });
});
