import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import {
  createOutcome,
  createRequest,
  emptyCreateForm,
  emptyIdentity,
  foundCustomerId,
  mergeLookups,
  placeFieldErrors,
  predictedTarget,
  validateCreateForm,
  type CreateForm,
} from "./customer-create";

function form(patch: Partial<CreateForm> = {}, customer: Partial<CreateForm["customer"]> = {}): CreateForm {
  const base = emptyCreateForm();
  return { ...base, ...patch, customer: { ...base.customer, ...customer } };
}

describe("createRequest (§4.1 POST /v1/customerandidentities)", () => {
  it("sends only filled fields, gender as a number, identities with a custom type, and the three options", () => {
    const f = form(
      {
        identities: [
          { type: "email", customType: "", value: " a@example.com ", name: "" },
          emptyIdentity("mobile"),
          { type: "custom", customType: "crm-account", value: "C-1", name: "CRM" },
        ],
        mergeByEmail: false,
        nullAble: true,
      },
      { name: "Ann", gender: "2", email: "a@example.com", remark: "  " },
    );
    const request = createRequest(f);
    expect(request).toEqual({
      query: { mergeByEmail: false, mergeByMobile: true, nullAble: true },
      body: {
        customer: { name: "Ann", gender: 2, email: "a@example.com" },
        customerIdentities: [
          { identityType: "email", identityValue: "a@example.com" },
          { identityType: "crm-account", identityValue: "C-1", identityName: "CRM" },
        ],
      },
    });
    // The operation table (what the proxy checks) accepts it.
    expect(operations["customers.createWithIdentities"].body!.safeParse(request.body).success).toBe(true);
  });
});

describe("validateCreateForm (§8 limits)", () => {
  it("accepts 32/128/256 characters and refuses one more, on the right field", () => {
    const ok = form({ identities: [{ type: "custom", customType: "t".repeat(32), value: "v".repeat(128), name: "n".repeat(256) }] });
    expect(validateCreateForm(ok)).toEqual({});
    const bad = form({ identities: [{ type: "custom", customType: "t".repeat(33), value: "v".repeat(129), name: "n".repeat(257) }] });
    expect(validateCreateForm(bad)).toEqual({
      "identities.0.customType": { code: "tooLong", max: 32 },
      "identities.0.value": { code: "tooLong", max: 128 },
      "identities.0.name": { code: "tooLong", max: 256 },
    });
  });
  it("needs a type and a value on a started identity; duplicates and a bad birthday are refused", () => {
    const f = form(
      {
        identities: [
          { type: "custom", customType: "", value: "x", name: "" },
          { type: "email", customType: "", value: "", name: "Work" },
          { type: "mobile", customType: "", value: "1", name: "" },
          { type: "mobile", customType: "", value: "1", name: "" },
        ],
      },
      { birthday: "1990/01/01" },
    );
    expect(validateCreateForm(f)).toEqual({
      birthday: { code: "birthday" },
      "identities.0.customType": { code: "required" },
      "identities.1.value": { code: "required" },
      "identities.3.value": { code: "identityDuplicate" },
    });
  });
  it("refuses an empty customer, accepts one with only a name", () => {
    expect(validateCreateForm(form())).toEqual({ "identities.0.value": { code: "identitiesRequired" } });
    expect(validateCreateForm(form({}, { name: "Bo" }))).toEqual({});
  });
});

describe("merge lookups and outcome (§4.1 rules 1–3)", () => {
  const request = createRequest(
    form({ identities: [{ type: "custom", customType: "crm", value: "C-9", name: "" }] }, { email: "e@x.cn", mobile: "138" }),
  );
  it("looks up identities first, then email and mobile only when merging by them is on", () => {
    expect(mergeLookups(request).map((l) => l.reason.kind)).toEqual(["identity", "email", "mobile"]);
    const noMerge = { ...request, query: { mergeByEmail: false, mergeByMobile: false, nullAble: false } };
    expect(mergeLookups(noMerge).map((l) => l.reason.kind)).toEqual(["identity"]);
    for (const lookup of mergeLookups(request)) {
      expect(operations[lookup.operation].query!.safeParse(lookup.input.query).success).toBe(true);
    }
  });
  it("reads the id of either lookup answer", () => {
    expect(foundCustomerId([{ customerId: 9007199254740993n }])).toBe("9007199254740993");
    expect(foundCustomerId([])).toBeUndefined();
    expect(foundCustomerId({ rows: [{ id: 5 }] })).toBe("5");
    expect(foundCustomerId({ rows: [] })).toBeUndefined();
  });
  it("reports merged into the customer found before, with why; a new id is created", () => {
    const matches = [undefined, { reason: { kind: "email" as const, value: "e@x.cn" }, customerId: "9007199254740993" }, { reason: { kind: "mobile" as const, value: "138" }, customerId: "77" }];
    expect(predictedTarget(matches)?.customerId).toBe("9007199254740993");
    expect(createOutcome(9007199254740993n, matches)).toEqual({ kind: "merged", customerId: "9007199254740993", reason: { kind: "email", value: "e@x.cn" } });
    expect(createOutcome("77", matches)).toEqual({ kind: "merged", customerId: "77", reason: { kind: "mobile", value: "138" } });
    expect(createOutcome(9007199254740999n, matches)).toEqual({ kind: "created", customerId: "9007199254740999" });
    expect(createOutcome(1, [])).toEqual({ kind: "created", customerId: "1" });
  });
});

describe("placeFieldErrors", () => {
  it("puts platform and proxy names on the form's fields, mapping sent identity indices back to rows", () => {
    const f = form({ identities: [emptyIdentity("email"), { type: "mobile", customType: "", value: "1", name: "" }] });
    const placed = placeFieldErrors(f, [
      { field: "email", message: "bad email" },
      { field: "customer.birthday", message: "must be YYYY-MM-DD" },
      { field: "customerIdentities[0].identityValue", message: "too long" },
      { field: "customerIdentities.0.identityName", message: "name too long" },
      { field: "attr.attr9", message: "unknown" },
    ]);
    expect(placed).toEqual({
      byField: { email: "bad email", birthday: "must be YYYY-MM-DD", "identities.1.value": "too long", "identities.1.name": "name too long" },
      unplaced: ["attr.attr9: unknown"],
    });
  });
});
