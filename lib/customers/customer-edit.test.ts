import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { changedFields, editContact, editFormFrom, placeEditErrors, updatePlan, validateEditForm, verificationDropped, verifiedLocked } from "./customer-edit";

const original = editFormFrom({ id: 9007199254740993n, name: "Ann", mobile: "13800000000", mobileVerified: true, email: "a@x.cn", emailVerified: false, gender: 2, remark: "vip" } as never);

describe("editFormFrom / changedFields", () => {
  it("reads the customer as text and flags; nothing changed at first", () => {
    expect(original.name).toBe("Ann");
    expect(original.gender).toBe("2");
    expect(original.company).toBe("");
    expect(original.mobileVerified).toBe(true);
    expect(changedFields(original, original)).toEqual([]);
  });
});

describe("verified-flag rule (§4.1 PUT)", () => {
  it("locks mobileVerified on while the number is unchanged, and frees it once the number changes", () => {
    expect(verifiedLocked(original, original, "mobileVerified")).toBe(true);
    expect(validateEditForm(original, { ...original, mobileVerified: false })).toEqual({ mobileVerified: { code: "verifiedLocked" } });
    const newNumber = { ...original, mobile: "13900000000", mobileVerified: false };
    expect(verifiedLocked(original, newNumber, "mobileVerified")).toBe(false);
    expect(validateEditForm(original, newNumber)).toEqual({});
  });
  it("does not lock a flag that was off, nor the email flag of an unverified email", () => {
    expect(verifiedLocked(original, original, "emailVerified")).toBe(false);
    expect(validateEditForm(original, { ...original, emailVerified: true })).toEqual({});
  });
});

describe("a changed mobile or email is no longer verified (the platform cannot know the new one is verified)", () => {
  it("unticks the flag of a changed contact, says so, and sends it off", () => {
    let form = editContact(original, original, "mobile", "1390000000");
    form = editContact(original, form, "mobile", "13900000000");
    expect(form.mobileVerified).toBe(false);
    expect(verificationDropped(original, form, "mobileVerified")).toBe(true);
    expect(updatePlan("9", original, form, { nullAble: false, forceUpdate: false }).input.body).toEqual({ mobile: "13900000000", mobileVerified: false });
  });
  it("keeps a box staff tick again for the new contact; back to the original contact, the original flag", () => {
    const changed = editContact(original, original, "mobile", "13900000000");
    const reticked = editContact(original, { ...changed, mobileVerified: true }, "mobile", "139000000001");
    expect(reticked.mobileVerified).toBe(true);
    expect(verificationDropped(original, reticked, "mobileVerified")).toBe(false);
    const back = editContact(original, changed, "mobile", " 13800000000 ");
    expect(back.mobileVerified).toBe(true);
    expect(verifiedLocked(original, back, "mobileVerified")).toBe(true);
  });
  it("the email likewise; an unverified email stays unticked", () => {
    const verified = { ...original, emailVerified: true };
    expect(editContact(verified, verified, "email", "b@x.cn").emailVerified).toBe(false);
    expect(editContact(original, original, "email", "b@x.cn").emailVerified).toBe(false);
    expect(verificationDropped(original, editContact(original, original, "email", "b@x.cn"), "emailVerified")).toBe(false);
  });
});

describe("validateEditForm (§8 addresses)", () => {
  it("accepts 512 characters and refuses 513 on the right field", () => {
    expect(validateEditForm(original, { ...original, homeAddress: "h".repeat(512), officeAddress: "o".repeat(512) })).toEqual({});
    expect(validateEditForm(original, { ...original, homeAddress: "h".repeat(513), officeAddress: "o".repeat(513), birthday: "1/2/3" })).toEqual({
      homeAddress: { code: "tooLong", max: 512 },
      officeAddress: { code: "tooLong", max: 512 },
      birthday: { code: "birthday" },
    });
  });
});

describe("updatePlan (§4.1 PUT /v1/customers/{id})", () => {
  it("sends only changed fields; an emptied field is kept unless nullAble, which sends null", () => {
    const form = { ...original, name: "Ann Lee", remark: "", gender: "1", mobileVerified: true };
    const off = updatePlan("9007199254740993", original, form, { nullAble: false, forceUpdate: false });
    expect(off).toEqual({ input: { params: { id: "9007199254740993" }, query: {}, body: { name: "Ann Lee", gender: 1 } }, cleared: [], kept: ["remark"] });
    const on = updatePlan("9007199254740993", original, form, { nullAble: true, forceUpdate: true });
    expect(on.input).toEqual({ params: { id: "9007199254740993" }, query: { nullAble: true, forceUpdate: true }, body: { name: "Ann Lee", gender: 1, remark: null } });
    expect(on.cleared).toEqual(["remark"]);
    const op = operations["customers.update"];
    expect(op.body!.safeParse(on.input.body).success).toBe(true);
    expect(op.query!.safeParse(on.input.query).success).toBe(true);
  });
  it("sends a changed verified flag with a changed number", () => {
    const plan = updatePlan("1", original, { ...original, mobile: "13900000000", mobileVerified: false }, { nullAble: false, forceUpdate: false });
    expect(plan.input.body).toEqual({ mobile: "13900000000", mobileVerified: false });
  });
});

describe("placeEditErrors", () => {
  it("puts the platform's and the proxy's names on the fields", () => {
    expect(placeEditErrors([{ field: "mobile", message: "bad" }, { field: "body.homeAddress", message: "long" }, { field: "params.id", message: "x" }])).toEqual({
      byField: { mobile: "bad", homeAddress: "long" },
      unplaced: ["params.id: x"],
    });
  });
});

describe("custom attributes on the edit form (§2.1 attr)", () => {
  const raw = { attr1: "金卡", attr2: 7, attr3: null };
  const start = editFormFrom({ id: "1", name: "Ann", attr: raw } as never);

  it("reads attributes as text; unchanged, nothing is sent", () => {
    expect(start.attr).toEqual({ attr1: "金卡", attr2: "7", attr3: "" });
    expect(changedFields(start, start)).toEqual([]);
    expect(updatePlan("1", start, start, { nullAble: false, forceUpdate: false }, raw).input.body).toEqual({});
  });

  it("a changed attribute sends the whole attr object: others as loaded, the changed one trimmed", () => {
    const form = { ...start, attr: { ...start.attr, attr1: " 银卡 " } };
    expect(changedFields(start, form)).toEqual(["attr"]);
    const body = updatePlan("1", start, form, { nullAble: false, forceUpdate: false }, raw).input.body;
    expect(body).toEqual({ attr: { attr1: "银卡", attr2: 7, attr3: null } });
    expect(operations["customers.update"].body.safeParse(body).success).toBe(true);
  });

  it("an emptied attribute is sent as null; a labelled one the customer lacks can be filled in", () => {
    const form = { ...start, attr: { ...start.attr, attr2: "  ", attr5: "Shanghai" } };
    const body = updatePlan("1", start, form, { nullAble: false, forceUpdate: false }, raw).input.body;
    expect(body).toEqual({ attr: { attr1: "金卡", attr2: null, attr3: null, attr5: "Shanghai" } });
  });

  it("a platform error on attr.attr1 lands on its field", () => {
    expect(placeEditErrors([{ field: "attr.attr1", message: "too long" }]).byField).toEqual({ "attr.attr1": "too long" });
  });
});
