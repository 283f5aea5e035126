import type { FieldError } from "@/lib/http/api-error";
import type { Translate, TranslateValues } from "@/lib/i18n/format";
import type { MessageKey } from "@/lib/i18n/messages";
import { charLength } from "@/lib/platform/limits";

/** A form field's key (`name`, `identities.0.value`, `lines.1.qty`; also its `data-field`) → the message on it. */
export type FieldErrors = Record<string, string>;
/** The platform's field errors put on a form: those on its fields, the rest as sentences above it. */
export type PlacedErrors = { byField: FieldErrors; unplaced: string[] };

/** A text's §8 problem: missing when required, or longer than `max` characters (code points). */
export type TextProblem = { code: "required" } | { code: "tooLong"; max: number };

export function textProblem(text: string, max: number, required = true): TextProblem | undefined {
  if (text === "") return required ? { code: "required" } : undefined;
  return charLength(text) > max ? { code: "tooLong", max } : undefined;
}

/** The fields that have a problem (a rule that passes gives undefined). */
export function onlyProblems<T extends Record<string, unknown>>(all: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(all).filter(([, problem]) => problem !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/**
 * The platform's field errors (§7.1 `fieldErrors`: `email`, `lines[1].lineId`) and the proxy's own
 * (`body.email`, `body.data.customerId`) on a form. `keyOf` names the form field of a field name
 * (the proxy's `body.` / `data.` removed), or undefined; a field's first error wins; the others are
 * `unplaced`, as "field: message".
 */
export function placeErrors(errors: readonly FieldError[], keyOf: (name: string) => string | undefined): PlacedErrors {
  const byField: FieldErrors = {};
  const unplaced: string[] = [];
  for (const error of errors) {
    const key = keyOf(error.field.replace(/^(?:body\.)?(?:data\.)?/, ""));
    if (key) byField[key] ??= error.message;
    else unplaced.push(error.field ? `${error.field}: ${error.message}` : error.message);
  }
  return { byField, unplaced };
}

/** The sentence of a problem: the message `<prefix>.<code>`, filled with the problem's values (`max`, …). */
export function problemText(t: Translate, prefix: string): (problem: { code: string }) => string {
  return (problem) => t(`${prefix}.${problem.code}` as MessageKey, problem as TranslateValues);
}

/** A form's problems in words: the sentence of each field's problem. */
export function problemTexts<P>(problems: Readonly<Partial<Record<string, P>>>, text: (problem: P) => string): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, problem] of Object.entries(problems)) if (problem !== undefined) out[key] = text(problem as P);
  return out;
}
