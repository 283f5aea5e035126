import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { parseOperationInput } from "@/lib/platform/client";
import { emptyIdentity } from "./customer-create";
import { addIdentityRequest, placeAddIdentityErrors, validateAddIdentity } from "./identity-add";

const row = (patch: Partial<ReturnType<typeof emptyIdentity>>) => ({ ...emptyIdentity("email"), ...patch });
const custom = (customType: string, value = "v1", name = "") => row({ type: "custom", customType, value, name });

describe("add an identity (§4.1 POST /v1/customeridentities, §8 limits)", () => {
  it("needs a value, and a type name when the type is custom", () => {
    expect(validateAddIdentity(row({ value: "  " }))).toEqual({ value: { code: "required" } });
    expect(validateAddIdentity(custom(" "))).toEqual({ customType: { code: "required" } });
    expect(validateAddIdentity(row({ value: "a@example.test" }))).toEqual({});
  });

  it("§8: type at most 32, value at most 128, name at most 256 characters (the limit itself passes)", () => {
    expect(validateAddIdentity(custom("t".repeat(32), "v".repeat(128), "n".repeat(256)))).toEqual({});
    expect(validateAddIdentity(custom("t".repeat(33)))).toEqual({ customType: { code: "tooLong", max: 32 } });
    expect(validateAddIdentity(custom("crm", "v".repeat(129)))).toEqual({ value: { code: "tooLong", max: 128 } });
    expect(validateAddIdentity(custom("crm", "v", "n".repeat(257)))).toEqual({ name: { code: "tooLong", max: 256 } });
  });

  it("§8 counts characters, not bytes or UTF-16 units: 128 Chinese characters or emoji fit", () => {
    expect(validateAddIdentity(custom("crm", "会".repeat(128)))).toEqual({});
    expect(validateAddIdentity(custom("crm", "😀".repeat(128)))).toEqual({});
    expect(validateAddIdentity(custom("crm", "会".repeat(129)))).toEqual({ value: { code: "tooLong", max: 128 } });
  });

  it("an identity the customer already has is refused before sending", () => {
    const existing = [{ identityType: "crm", identityValue: "A1", identityName: null }];
    expect(validateAddIdentity(custom("crm", " A1 "), existing)).toEqual({ value: { code: "identityExists" } });
    expect(validateAddIdentity(custom("crm", "A2"), existing)).toEqual({});
    expect(validateAddIdentity(row({ value: "A1" }), existing)).toEqual({});
  });

  it("builds the request with trimmed values; an empty name is not sent; the operation table accepts it", () => {
    const request = addIdentityRequest("9223372036854775000", custom(" shop-account ", " S-1 ", "  "));
    expect(request).toEqual({ body: { customerId: "9223372036854775000", identityType: "shop-account", identityValue: "S-1" } });
    expect(addIdentityRequest("1", row({ type: "mobile", value: "13800000000", name: "手机" })).body).toMatchObject({ identityType: "mobile", identityName: "手机" });
    expect(parseOperationInput(operations["identities.add"], request as never).ok).toBe(true);
  });

  it("puts the platform's and the proxy's field names on the form's fields; the rest stays unplaced", () => {
    const errors = [
      { field: "identityValue", message: "identityValue must be at most 128 characters" },
      { field: "body.identityName", message: "too long" },
      { field: "identityType", message: "identityType is required" },
      { field: "customerId", message: "customerId is required" },
    ];
    expect(placeAddIdentityErrors(custom("x"), errors)).toEqual({
      byField: { value: "identityValue must be at most 128 characters", name: "too long", customType: "identityType is required" },
      unplaced: ["customerId: customerId is required"],
    });
    expect(placeAddIdentityErrors(row({}), [{ field: "identityType", message: "bad" }]).byField).toEqual({ type: "bad" });
  });
});
