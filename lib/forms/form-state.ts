import type { FieldErrors, PlacedErrors } from "./field-errors";

/**
 * The state of a console form, as a pure reducer (`useForm` runs it). The rules:
 * - the form's own problems show from the first submit on, and follow every change after it;
 * - the platform's field errors stay on their fields until that field is changed or the form is sent again;
 *   above the form goes what is on no field: the failure itself only when no field error was placed;
 * - a failed submit asks for the first field in error to get the focus (`focus`: the keys in error);
 * - `reset` starts again from the given values (after saving: nothing is unsaved any more).
 */
export type FormState<V> = {
  start: V;
  values: V;
  submitted: boolean;
  server: FieldErrors;
  formError: string | null;
  focus: readonly string[] | null;
};

export type FormAction<V> =
  | { type: "edit"; next: V | ((values: V) => V); keys: readonly string[] }
  | { type: "submit"; problems: FieldErrors }
  | { type: "fail"; lead: string | null; placed: PlacedErrors }
  | { type: "formError"; message: string | null }
  | { type: "reset"; values?: V | ((values: V) => V) };

export function initialFormState<V>(values: V): FormState<V> {
  return { start: values, values, submitted: false, server: {}, formError: null, focus: null };
}

const keysOf = (errors: FieldErrors) => (Object.keys(errors).length > 0 ? Object.keys(errors) : null);

export function formReducer<V>(state: FormState<V>, action: FormAction<V>): FormState<V> {
  switch (action.type) {
    case "edit": {
      const values = typeof action.next === "function" ? (action.next as (values: V) => V)(state.values) : action.next;
      const stale = action.keys.filter((k) => k in state.server);
      const server = stale.length === 0 ? state.server : Object.fromEntries(Object.entries(state.server).filter(([k]) => !stale.includes(k)));
      return { ...state, values, server };
    }
    case "submit":
      return { ...state, submitted: true, server: {}, formError: null, focus: keysOf(action.problems) ?? state.focus };
    case "fail": {
      const onFields = Object.keys(action.placed.byField).length > 0;
      const formError = [onFields ? null : action.lead, ...action.placed.unplaced].filter(Boolean).join(" ") || null;
      return { ...state, server: action.placed.byField, formError, focus: keysOf(action.placed.byField) ?? state.focus };
    }
    case "formError":
      return { ...state, formError: action.message };
    case "reset":
      return initialFormState(typeof action.values === "function" ? (action.values as (values: V) => V)(state.values) : (action.values ?? state.values));
  }
}

/** What the fields show: the platform's errors, and (fresher) the form's own problems once it was submitted. */
export function shownErrors<V>(state: FormState<V>, problems: FieldErrors): FieldErrors {
  return state.submitted ? { ...state.server, ...problems } : state.server;
}

/** The default "unsaved changes" test: the values differ from where the form started. */
export function valuesChanged<V>(start: V, values: V): boolean {
  return start !== values && JSON.stringify(start) !== JSON.stringify(values);
}
