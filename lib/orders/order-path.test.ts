import { describe, expect, it } from "vitest";
import { orderNoFromParam, orderPath } from "./order-path";

describe("order paths (§4.2 order numbers of any characters)", () => {
  it("encodes order numbers as one path segment", () => {
    expect(orderPath("A/B #1?x=%")).toBe("/orders/A%2FB%20%231%3Fx%3D%25");
    expect(orderPath("订单-1", "/edit")).toBe("/orders/%E8%AE%A2%E5%8D%95-1/edit");
    expect(decodeURIComponent(orderPath("A/B #1?x=%").slice("/orders/".length))).toBe("A/B #1?x=%");
  });

  it("reads the segment back, and refuses a broken or blank one", () => {
    expect(orderNoFromParam(orderPath("A/B #1?x=%").slice("/orders/".length))).toBe("A/B #1?x=%");
    expect(orderNoFromParam("%E0%A4%A")).toBeUndefined();
    expect(orderNoFromParam("%20")).toBeUndefined();
  });
});
