import { describe, expect, it } from "vitest";
import { PROFILE_FIELDS, splitProfileFields } from "./profile-fields";

describe("a customer's profile shows the filled fields, the empty ones behind a toggle", () => {
  it("splits in reading order; false and 0 are values, blank text is not", () => {
    const { filled, empty } = splitProfileFields({ id: "9007199254741993", name: "王小明", mobile: " ", mobileVerified: false, gender: 0, remark: null });
    expect(filled).toEqual(["id", "name", "gender", "mobileVerified"]);
    expect(empty).toHaveLength(PROFILE_FIELDS.length - 4);
    expect(empty).toContain("mobile");
    expect(empty.indexOf("mobile")).toBeLessThan(empty.indexOf("remark"));
  });
});
