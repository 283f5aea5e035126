import { describe, expect, it } from "vitest";
import { LOCALES, type Locale } from "./locales";
import { messages } from "./messages";
import { isTagsDialogMessageKey, tagsDialogMessages } from "./tags-dialog-messages";
import { isTagsMessageKey, tagsMessages } from "./tags-messages";

const tables: Array<[string, Record<Locale, Record<string, string>>]> = [["page", tagsMessages], ["dialogs", tagsDialogMessages]];

describe("the Tags section's messages (page and dialogs)", () => {
  it("have the same keys in every language, and no key twice (nor a shared one)", () => {
    for (const [, table] of tables) {
      const keys = Object.keys(table.en).sort();
      for (const locale of LOCALES) expect(Object.keys(table[locale]).sort(), locale).toEqual(keys);
    }
    const page = Object.keys(tagsMessages.en);
    const dialogs = Object.keys(tagsDialogMessages.en);
    expect(page.filter((k) => dialogs.includes(k) || k in messages.en)).toEqual([]);
    expect(dialogs.filter((k) => k in messages.en)).toEqual([]);
    expect(isTagsMessageKey("tags.title")).toBe(true);
    expect(isTagsDialogMessageKey("tags.merge.confirm")).toBe(true);
    expect(isTagsMessageKey("lists.title")).toBe(false);
  });

  it("have no empty message, the same placeholders everywhere, and real Chinese", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [, table] of tables) {
      for (const key of Object.keys(table.en)) {
        for (const locale of LOCALES) {
          expect(table[locale][key]!.trim(), `${locale} ${key}`).not.toBe("");
          expect(placeholders(table[locale][key]!), `${locale} ${key}`).toEqual(placeholders(table.en[key]!));
        }
        expect(table["zh-CN"][key], key).not.toBe(table.en[key]);
      }
    }
  });
});
