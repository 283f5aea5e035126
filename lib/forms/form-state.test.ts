import { describe, expect, it } from "vitest";
import type { FieldErrors } from "./field-errors";
import { formReducer, initialFormState, shownErrors, valuesChanged, type FormAction, type FormState } from "./form-state";

type V = { name: string; email: string };
const run = (actions: FormAction<V>[], start: V = { name: "", email: "" }): FormState<V> => actions.reduce(formReducer<V>, initialFormState(start));
const rules = (v: V): FieldErrors => (v.name ? {} : { name: "Required." });

describe("the console's form state", () => {
  it("shows the form's own problems only from the first submit on, then after every change", () => {
    const fresh = run([{ type: "edit", next: { name: "", email: "x" }, keys: ["email"] }]);
    expect(shownErrors(fresh, rules(fresh.values))).toEqual({});
    const sent = formReducer(fresh, { type: "submit", problems: rules(fresh.values) });
    expect(shownErrors(sent, rules(sent.values))).toEqual({ name: "Required." });
    expect(sent.focus).toEqual(["name"]);
    const fixed = formReducer(sent, { type: "edit", next: (v) => ({ ...v, name: "Li" }), keys: ["name"] });
    expect(shownErrors(fixed, rules(fixed.values))).toEqual({});
  });

  it("keeps a platform error on its field until that field changes or the form is sent again", () => {
    const failed = run([
      { type: "submit", problems: {} },
      { type: "fail", lead: "Refused.", placed: { byField: { email: "taken", name: "odd" }, unplaced: ["x: y"] } },
    ]);
    // The fields say what is wrong: above the form only what is on none of them.
    expect(failed.formError).toBe("x: y");
    expect(failed.focus).toEqual(["email", "name"]);
    const edited = formReducer(failed, { type: "edit", next: (v) => ({ ...v, email: "b@c" }), keys: ["email"] });
    expect(shownErrors(edited, {})).toEqual({ name: "odd" });
    expect(edited.formError).toBe("x: y");
    const again = formReducer(edited, { type: "submit", problems: {} });
    expect(again.server).toEqual({});
    expect(again.formError).toBeNull();
  });

  it("a refusal without field errors says so above the form; one without any sentence leaves no empty alert", () => {
    expect(run([{ type: "fail", lead: "Refused.", placed: { byField: {}, unplaced: ["x: y"] } }]).formError).toBe("Refused. x: y");
    expect(run([{ type: "fail", lead: null, placed: { byField: {}, unplaced: [] } }]).formError).toBeNull();
  });

  it("resets to new values, or to the current ones once saved (nothing unsaved)", () => {
    const edited = run([{ type: "edit", next: { name: "Li", email: "" }, keys: [] }, { type: "submit", problems: {} }]);
    expect(valuesChanged(edited.start, edited.values)).toBe(true);
    const saved = formReducer(edited, { type: "reset" });
    expect(valuesChanged(saved.start, saved.values)).toBe(false);
    expect(saved.submitted).toBe(false);
    expect(formReducer(edited, { type: "reset", values: { name: "", email: "" } }).values).toEqual({ name: "", email: "" });
    expect(formReducer(edited, { type: "reset", values: (v) => ({ ...v, email: "kept" }) }).values).toEqual({ name: "Li", email: "kept" });
  });
});
