import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { mergeByIdentitiesRequest, mergeByIdRequest, remainingCustomerId, sameCustomer, validateMerge } from "./customer-merge";

const side = (id = "", identityType = "", identityValue = "") => ({ id, identityType, identityValue });

describe("validateMerge (§4.1 merge)", () => {
  it("by id: both required, digits only, not the same customer", () => {
    expect(validateMerge("id", side(), side("x"))).toEqual({ "from.id": { code: "required" }, "to.id": { code: "notAnId" } });
    expect(validateMerge("id", side("9007199254740993"), side("9007199254740993"))).toEqual({ "to.id": { code: "same" } });
    expect(validateMerge("id", side("9007199254740993"), side("9007199254740995"))).toEqual({});
  });
  it("by identities: type ≤ 32 and value ≤ 128, both required", () => {
    expect(validateMerge("identity", side("", "t".repeat(33), ""), side("", "email", "v".repeat(129)))).toEqual({
      "from.identityType": { code: "tooLong", max: 32 },
      "from.identityValue": { code: "required" },
      "to.identityValue": { code: "tooLong", max: 128 },
    });
    expect(validateMerge("identity", side("", "email", "a@x.cn"), side("", "email", "a@x.cn"))).toEqual({ "to.identityValue": { code: "same" } });
    expect(validateMerge("identity", side("", "t".repeat(32), "v".repeat(128)), side("", "mobile", "1"))).toEqual({});
  });
});

describe("merge requests and report", () => {
  it("builds requests the operation table accepts", () => {
    const byId = mergeByIdRequest(" 9007199254740993 ", "5");
    expect(byId).toEqual({ query: { fromId: "9007199254740993", toId: "5" } });
    expect(operations["customers.mergeById"].query!.safeParse(byId.query).success).toBe(true);
    const byIdentity = mergeByIdentitiesRequest(side("", " email ", "a@x.cn"), side("", "mobile", "138"));
    expect(byIdentity).toEqual({ body: { from: { identityType: "email", identityValue: "a@x.cn" }, to: { identityType: "mobile", identityValue: "138" } } });
    expect(operations["customers.mergeByIdentities"].body!.safeParse(byIdentity.body).success).toBe(true);
  });
  it("reads the remaining id and tells the same customer on both sides", () => {
    expect(remainingCustomerId({ data: { customerId: 9007199254740993n } })).toBe("9007199254740993");
    expect(remainingCustomerId({})).toBeUndefined();
    expect(sameCustomer("1", "1")).toBe(true);
    expect(sameCustomer("1", "2")).toBe(false);
    expect(sameCustomer(undefined, undefined)).toBe(false);
  });
});
