import { expect, it } from "vitest";
import { inWriteOrder } from "./write-order";

it("keeps one item per id (the last) and orders ids numerically", () => {
  const items = [{ id: "10", v: 1 }, { id: "9", v: 2 }, { id: "9007199254740993", v: 3 }, { id: "10", v: 4 }];
  expect(inWriteOrder(items)).toEqual([{ id: "9", v: 2 }, { id: "10", v: 4 }, { id: "9007199254740993", v: 3 }]);
});
