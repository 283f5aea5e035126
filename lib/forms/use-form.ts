"use client";
import { useEffect, useReducer, useRef, type FormEvent } from "react";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import type { FieldErrors, PlacedErrors } from "./field-errors";
import { formReducer, initialFormState, shownErrors, valuesChanged, type FormAction, type FormState } from "./form-state";

/** What can take the focus inside a marked element (a fieldset of checkboxes gives it to the first). */
const FOCUSABLE = "input,select,textarea,button,[tabindex]";
const NONE: FieldErrors = {};

/** The first element of the form, in page order, whose `data-field` is one of `keys`. */
function firstMarked(form: HTMLFormElement | null, keys: readonly string[]): HTMLElement | undefined {
  const marked = Array.from(form?.querySelectorAll<HTMLElement>("[data-field]") ?? []).find((el) => keys.includes(el.dataset.field ?? ""));
  return marked && !marked.matches(FOCUSABLE) ? (marked.querySelector<HTMLElement>(FOCUSABLE) ?? marked) : marked;
}

export type FormOptions<V> = {
  initial: V | (() => V);
  /** The form's rules in words (a pure `lib/…` validator and `problemTexts`): field key → message. */
  validate?: (values: V) => FieldErrors;
  /** Whether there is something unsaved (default: the values differ from where the form started). */
  isDirty?: (start: V, values: V) => boolean;
  /** Ask before leaving while there is something unsaved (`useUnsavedGuard`). */
  guard?: boolean;
};

/**
 * The one form mechanism of the console (see form-state.ts for its rules): the values, the errors
 * on the fields (the form's own and the platform's), the sentence above the form, the focus on the
 * first field in error (`data-field` inside the submitted form), and the unsaved-changes guard. No
 * library: a form library would add more to every form page's first load than this whole file.
 */
export function useForm<V>({ initial, validate, isDirty = valuesChanged, guard = false }: FormOptions<V>) {
  const [state, dispatch] = useReducer(
    (s: FormState<V>, a: FormAction<V>) => formReducer(s, a),
    initial,
    (init) => initialFormState(typeof init === "function" ? (init as () => V)() : init),
  );
  // The form element, known from its submit event: the first field in error is looked for inside it.
  const formElement = useRef<HTMLFormElement | null>(null);
  const errors = shownErrors(state, state.submitted && validate ? validate(state.values) : NONE);
  const dirty = isDirty(state.start, state.values);
  useUnsavedGuard(guard && dirty);
  useEffect(() => {
    if (state.focus) firstMarked(formElement.current, state.focus)?.focus();
  }, [state.focus]);

  return {
    values: state.values,
    errors,
    formError: state.formError,
    /** New values; the platform's errors on `keys` (the fields changed) go. */
    edit: (next: V | ((values: V) => V), ...keys: string[]) => dispatch({ type: "edit", next, keys }),
    /** The props that put a field's key and error on a `TextField` / `SelectField`. */
    field: (key: string) => ({ "data-field": key, error: errors[key] }),
    /** From the form's `onSubmit`: checks the rules, and sends (`onValid`) only when none is broken. */
    submit: (event: FormEvent<HTMLFormElement>, onValid: (values: V) => unknown, onInvalid?: () => void) => {
      event.preventDefault();
      formElement.current = event.currentTarget;
      const problems = validate?.(state.values) ?? NONE;
      dispatch({ type: "submit", problems });
      if (Object.keys(problems).length > 0) onInvalid?.();
      else void onValid(state.values);
    },
    /** A refusal: its errors on their fields; above the form the rest, and `lead` (the failure) when none is on a field. */
    fail: (lead: string | null, placed: PlacedErrors = { byField: {}, unplaced: [] }) => dispatch({ type: "fail", lead, placed }),
    setFormError: (message: string | null) => dispatch({ type: "formError", message }),
    /** Start again from `values` (default: the current ones, e.g. once they are saved). */
    reset: (values?: V | ((values: V) => V)) => dispatch({ type: "reset", values }),
  };
}
