import { describe, expect, it } from "vitest";
import { addTagsInput, MAX_BULK_TAGS, parseTagNames } from "./bulk-tags";

describe("tag names for tagging many customers (§4.5, §8)", () => {
  it("splits on commas (ASCII and full-width), 、, semicolons and new lines; trims; drops empties and repeats", () => {
    expect(parseTagNames(" vip, spring sale ,，新客、vip;;b2b\nlast ")).toEqual({ ok: true, names: ["vip", "spring sale", "新客", "b2b", "last"] });
  });
  it("needs at least one name", () => {
    expect(parseTagNames("")).toEqual({ ok: false, problem: "required" });
    expect(parseTagNames(" , ，\n ")).toEqual({ ok: false, problem: "required" });
  });
  it("allows 32 characters and refuses 33, naming the long one (§8)", () => {
    expect(parseTagNames("t".repeat(32))).toEqual({ ok: true, names: ["t".repeat(32)] });
    expect(parseTagNames(`ok, ${"t".repeat(33)}`)).toEqual({ ok: false, problem: "tooLong", name: "t".repeat(33), max: 32 });
    expect(parseTagNames(`  ${"t".repeat(32)}  `)).toMatchObject({ ok: true });
  });
  it(`refuses more than ${MAX_BULK_TAGS} names`, () => {
    const names = Array.from({ length: MAX_BULK_TAGS + 1 }, (_, i) => `t${i}`);
    expect(parseTagNames(names.slice(0, MAX_BULK_TAGS).join(","))).toMatchObject({ ok: true });
    expect(parseTagNames(names.join(","))).toEqual({ ok: false, problem: "tooMany", max: MAX_BULK_TAGS });
  });
  it("builds the addCustomerTag body with the id kept as a string", () => {
    expect(addTagsInput("9007199254740993", ["vip", "新客"])).toEqual({ body: { customerId: "9007199254740993", tags: [{ name: "vip" }, { name: "新客" }] } });
  });
});
