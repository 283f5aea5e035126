"use client";
import { useState, type Dispatch, type SetStateAction } from "react";

const sameFields = <T extends object>(a: T, b: T) => {
  const keys = Object.keys(a) as Array<keyof T>;
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
};

/**
 * A form's draft of values that live elsewhere (a filter form over the URL): staff edit it freely,
 * and it starts again from the values when they change from outside (Clear, a link, Back). The
 * values are compared field by field, so a new object with the same fields keeps the draft.
 */
export function useDraft<T extends object>(values: T): [T, Dispatch<SetStateAction<T>>] {
  const [draft, setDraft] = useState(values);
  const [shownFor, setShownFor] = useState(values);
  // React's "adjust state while rendering": no effect, no render with stale boxes.
  if (!sameFields(shownFor, values)) {
    setShownFor(values);
    setDraft(values);
  }
  return [draft, setDraft];
}
