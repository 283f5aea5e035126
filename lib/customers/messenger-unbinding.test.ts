import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { unbindingBody } from "./messenger-unbinding";

describe("unbindingBody (§4.1 messenger unbinding)", () => {
  it("prefers the union id, falls back to the open id, and has nothing without either", () => {
    const both = [{ identityType: "messenger", identityValue: "o-1" }, { identityType: "messenger-unionid", identityValue: "u-1" }];
    expect(unbindingBody(both)).toEqual({ unionid: "u-1" });
    expect(unbindingBody([{ identityType: "messenger", identityValue: "o-1" }])).toEqual({ openid: "o-1" });
    expect(unbindingBody([{ identityType: "email", identityValue: "a@x.cn" }])).toBeUndefined();
    expect(operations["customers.unbindMessenger"].body!.safeParse(unbindingBody(both)).success).toBe(true);
  });
});
