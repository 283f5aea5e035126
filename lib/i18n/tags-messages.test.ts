import { describe, expect, it } from "vitest";
import { messages } from "./messages";
import { tagsEn } from "./tags-messages";

/** The section file is spread into the one dictionary (whose parity messages.test.ts checks). */
describe("the Tags section's strings", () => {
  it("are part of the dictionary and share no key with the core strings", () => {
    for (const key of Object.keys(tagsEn) as (keyof typeof tagsEn)[]) {
      expect(key.startsWith("tags."), key).toBe(true);
      expect(messages.en[key], key).toBe(tagsEn[key]);
      expect(messages["zh-CN"][key], key).not.toBe(tagsEn[key]);
    }
  });
});
