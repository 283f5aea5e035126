import { describe, expect, it } from "vitest";
import { placeErrors, problemTexts, textProblem } from "./field-errors";

describe("textProblem", () => {
  it("counts characters as code points (§8) and knows optional fields", () => {
    expect(textProblem("", 3)).toEqual({ code: "required" });
    expect(textProblem("", 3, false)).toBeUndefined();
    expect(textProblem("😀😀😀", 3)).toBeUndefined();
    expect(textProblem("会员号码", 3)).toEqual({ code: "tooLong", max: 3 });
  });
});

describe("placeErrors", () => {
  const keyOf = (name: string) => ({ email: "email", "lines.1.qty": "lines.1.qty" })[name];

  it("puts the platform's and the proxy's field names on the form's fields, the first error of a field winning", () => {
    const placed = placeErrors(
      [
        { field: "email", message: "bad email" },
        { field: "body.email", message: "second" },
        { field: "body.data.lines.1.qty", message: "bad qty" },
        { field: "nope", message: "unknown" },
        { field: "", message: "whole request" },
      ],
      keyOf,
    );
    expect(placed).toEqual({ byField: { email: "bad email", "lines.1.qty": "bad qty" }, unplaced: ["nope: unknown", "whole request"] });
  });
});

describe("problemTexts", () => {
  it("words each field's problem and skips fields without one", () => {
    expect(problemTexts({ a: { code: "x" }, b: undefined }, (p) => `<${p.code}>`)).toEqual({ a: "<x>" });
  });
});
