import { describe, expect, it } from "vitest";
import { readPlatformResponse } from "@/lib/platform/errors";
import { customer } from "@/lib/platform/resources";
import { RECORDED } from "@/lib/platform/testing/recorded-answers";
import { editFormFrom, updatePlan } from "./customer-edit";
import { otherFields, SPEC_CUSTOMER_FIELDS } from "./other-fields";

const recorded = (() => {
  const read = readPlatformResponse(200, new Headers({ "content-type": "application/json" }), RECORDED.customerList.body);
  if (!read.ok) throw read.error;
  return (read.value as { rows: Record<string, unknown>[] }).rows[0]!;
})();

describe("a customer's fields beyond §2.1 (the real platform's ~30 extra fields)", () => {
  it("the §2.1 list is the customer schema's, field for field", () => {
    expect([...SPEC_CUSTOMER_FIELDS].sort()).toEqual(Object.keys(customer.shape).sort());
  });

  it("are listed by name with their values as received, ids beyond 2^53 exact", () => {
    expect(otherFields(recorded)).toEqual([
      ["acceptEmail", false], ["acceptSMS", false], ["customerIdStr", "9007199254740995"], ["externalId", "crm-77"], ["isAnonymous", false],
      ["membershipLevel", "gold"], ["qq", null], ["tags", null], ["weibo", null],
    ]);
    expect(recorded.ownerId).toBe("9007199254740997");
  });

  it("are never sent in an edit, with or without nullAble (the platform keeps them)", () => {
    const original = editFormFrom(recorded);
    for (const nullAble of [false, true]) {
      const plan = updatePlan("9007199254740995", original, { ...original, name: "Lin Two", email: "" }, { nullAble, forceUpdate: false });
      expect(Object.keys(plan.input.body as object).sort()).toEqual(["name"]);
    }
  });
});
