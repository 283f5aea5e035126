import { describe, expect, it } from "vitest";
import { eventImportMessages } from "./events/import";
import { recordEventMessages } from "./events/record";
import { eventRuleMessages } from "./events/rules";
import { combineMessages, featureTranslate, type FeatureMessages } from "./feature-messages";
import { LOCALES } from "./locales";
import { messages } from "./messages";

const FEATURES: Record<string, FeatureMessages<string>> = { eventRuleMessages, recordEventMessages, eventImportMessages };
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

  it("no key is defined twice (in two features, or in a feature and the global dictionary)", () => {
    const all = [...Object.values(FEATURES).flatMap((d) => Object.keys(d.en)), ...Object.keys(messages.en)];
    expect(all.filter((k, i) => all.indexOf(k) !== i)).toEqual([]);
  });

  it("translates and fills placeholders; combined dictionaries hold both", () => {
    const t = featureTranslate(combineMessages(eventRuleMessages, recordEventMessages), "zh-CN");
    expect(t("eventError.tooLong", { max: 32 })).toBe("最多 32。");
    expect(t("recordEvent.title")).toBe("记录事件");
  });
});
