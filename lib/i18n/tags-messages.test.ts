import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales";
import { messages } from "./messages";
import { isTagsMessageKey, tagsMessages, type TagsMessageKey } from "./tags-messages";

describe("the Tags section's messages", () => {
  const keys = Object.keys(tagsMessages.en) as TagsMessageKey[];
  it("has the same keys in every language, none shadowing a shared key", () => {
    for (const locale of LOCALES) expect(Object.keys(tagsMessages[locale]).sort(), locale).toEqual([...keys].sort());
    expect(keys.filter((k) => k in messages.en)).toEqual([]);
    expect(isTagsMessageKey("tags.title")).toBe(true);
    expect(isTagsMessageKey("lists.title")).toBe(false);
  });
  it("has no empty message, the same placeholders everywhere, and real Chinese", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of keys) {
      for (const locale of LOCALES) {
        expect(tagsMessages[locale][key].trim(), `${locale} ${key}`).not.toBe("");
        expect(placeholders(tagsMessages[locale][key]), `${locale} ${key}`).toEqual(placeholders(tagsMessages.en[key]));
      }
      expect(tagsMessages["zh-CN"][key], key).not.toBe(tagsMessages.en[key]);
    }
  });
});
