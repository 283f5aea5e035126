/**
 * ICU MessageFormat at run time, for the browser and the server alike. Messages are parsed on the
 * server by a well-kept ICU parser (`compile.ts`, @formatjs/icu-messageformat-parser) into this
 * compact form, so the browser carries no parser: only this small interpreter, with the plural
 * categories of the language from the platform's own `Intl.PluralRules` (CLDR rules).
 *
 * A compiled message is a plain string (no argument: most messages) or a list of parts:
 * a string, `[name]` (an argument), `["#"]` (the number of the enclosing plural),
 * `[name, "n"]` (`{name, number}`), `[name, "p" | "o", cases, offset]` (plural / selectordinal) or
 * `[name, "s", cases]` (select). Counts are passed as numbers: `{n, number}` and a plural's `#`
 * format them in the language's digits; a count given as text is no count (it shows as `{n}`).
 */
export type CompiledMessage = string | CompiledPart[];
export type CompiledPart =
  | string
  | readonly [name: string]
  | readonly [name: string, kind: "n"]
  | readonly [name: string, kind: "p" | "o", cases: Record<string, CompiledMessage>, offset: number]
  | readonly [name: string, kind: "s", cases: Record<string, CompiledMessage>];

export type MessageValues = Record<string, string | number>;

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(locale: string, type: Intl.PluralRuleType, n: number): string {
  const key = `${locale}:${type}`;
  let rules = pluralRules.get(key);
  if (!rules) pluralRules.set(key, (rules = new Intl.PluralRules(locale, { type })));
  return rules.select(n);
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/**
 * A number in the language's digits and grouping (10,000): ICU's `{n, number}` and `#`, and the one
 * way the console shows a number outside a message (a table cell, a size with `maximumFractionDigits`).
 */
export function formatNumber(n: number, locale: string, options?: Intl.NumberFormatOptions): string {
  if (options) return new Intl.NumberFormat(locale, options).format(n);
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(n);
}

/** `message` with its arguments filled; an argument without a value stays visible as `{name}`. */
export function renderMessage(message: CompiledMessage, locale: string, values?: MessageValues, pound?: string): string {
  if (typeof message === "string") return message;
  let out = "";
  for (const part of message) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const [name] = part;
    if (part.length === 1) {
      if (name === "#") out += pound ?? "#";
      else out += values && name in values ? String(values[name]) : `{${name}}`;
      continue;
    }
    const raw = values?.[name];
    if (part[1] === "n") {
      out += typeof raw === "number" && Number.isFinite(raw) ? formatNumber(raw, locale) : `{${name}}`;
      continue;
    }
    if (part[1] === "s") {
      const cases = part[2];
      out += renderMessage(cases[String(raw)] ?? cases.other ?? "", locale, values, pound);
      continue;
    }
    const [, kind, cases, offset] = part;
    if (typeof raw !== "number" || !Number.isFinite(raw)) {
      out += `{${name}}`;
      continue;
    }
    const n = raw;
    // An exact `=n` case wins over the language's category (ICU); `#` is the value less the offset.
    const exact = cases[`=${n}`];
    const chosen = exact ?? cases[pluralCategory(locale, kind === "o" ? "ordinal" : "cardinal", n - offset)] ?? cases.other ?? "";
    out += renderMessage(chosen, locale, values, formatNumber(n - offset, locale));
  }
  return out;
}
