import { createParser, loadValues, parseAsStringLiteral, writeValues, type ParserMap, type SearchParams, type UrlKeys, type ValuesOf } from "./url-parsers";
import { isPlatformId } from "@/lib/platform/ids";

/**
 * A console page's state in its URL, declared once as a map of parsers (lib/ui/url-parsers.ts,
 * plain functions: server components import them too). The browser reads and
 * writes it with `useUrlState` (lib/hooks/use-url-state.ts); the server page `parse`s Next's
 * `searchParams` into the same state before its prefetch, so both build the same query keys.
 * Unknown or malformed values read as the default; defaults are left out of the URL; the page's
 * other parameters (openAppId, lang) are kept. `fromValues` / `toValues` hold rules that span
 * keys (a keyset cursor only counts when sorted by id, say); without them the values are the state.
 */
export type UrlState<P extends ParserMap, S> = {
  parsers: P;
  urlKeys: UrlKeys<P>;
  fromValues: (values: ValuesOf<P>) => S;
  /** Every key's value (a default one clears its key): the state replaces what the URL held. */
  toValues: (state: S) => ValuesOf<P>;
  /** The state of a URL: `URLSearchParams` or Next's `searchParams` object (first of repeated keys). */
  parse: (source: URLSearchParams | SearchParams) => S;
  /** The URL query of a state, over `keep`'s other parameters. */
  serialize: (state: S, keep?: URLSearchParams) => URLSearchParams;
  /** A state as the URL gives it back once written (trimmed, clamped, defaults): what a write shows. */
  settle: (state: S) => S;
  defaults: S;
};

type Codec<P extends ParserMap, S> = Pick<UrlState<P, S>, "fromValues" | "toValues">;

export function defineUrlState<P extends ParserMap>(parsers: P, urlKeys?: UrlKeys<P>): UrlState<P, ValuesOf<P>>;
export function defineUrlState<P extends ParserMap, S>(parsers: P, urlKeys: UrlKeys<P>, codec: Codec<P, S>): UrlState<P, S>;
export function defineUrlState<P extends ParserMap, S>(parsers: P, urlKeys: UrlKeys<P> = {}, codec?: Codec<P, S>): UrlState<P, S> {
  const { fromValues, toValues } = codec ?? { fromValues: (v: ValuesOf<P>) => v as S, toValues: (s: S) => s as ValuesOf<P> };
  const parse = (source: URLSearchParams | SearchParams) => fromValues(loadValues(parsers, urlKeys, source));
  const own = Object.keys(parsers).map((key) => urlKeys[key] ?? key);
  const serialize = (state: S, keep?: URLSearchParams) => {
    // Own keys go after the others, in the map's order: equal states give equal URLs.
    const others = new URLSearchParams([...(keep ?? [])].filter(([key]) => !own.includes(key)));
    return writeValues(parsers, urlKeys, others, toValues(state));
  };
  return { parsers, urlKeys, fromValues, toValues, parse, serialize, settle: (state) => parse(serialize(state)), defaults: parse(new URLSearchParams()) };
}

/** An integer `accept`ed, else nothing: strict (`Number`), so "2abc" and "1.5" are no page. */
export function parseAsIntegerIf(accept: (n: number) => boolean) {
  return createParser({
    parse: (value) => {
      const n = Number(value);
      return Number.isInteger(n) && accept(n) ? n : null;
    },
    serialize: String,
  });
}

/** Far enough for any real browsing; keeps `page * rows` within what the platform pages to. */
export const MAX_PAGE = 1_000_000;

/** `page` from 1 (the default) to `MAX_PAGE`. */
export const parseAsPage = parseAsIntegerIf((n) => n >= 1 && n <= MAX_PAGE).withDefault(1);

/** The page sizes a console list offers; the first is the default (§8 `rows` 20). */
export const PAGE_SIZES = [20, 50, 100] as const;

/** `rows`: one of the sizes a list offers, the first by default. */
export function parseAsPageSize(sizes: readonly number[] = PAGE_SIZES) {
  return parseAsIntegerIf((n) => sizes.includes(n)).withDefault(sizes[0]!);
}

/** `sord`; anything else reads as `fallback`. */
export function parseAsOrder(fallback: "asc" | "desc") {
  return parseAsStringLiteral(["asc", "desc"] as const).withDefault(fallback);
}

/** Text as typed, trimmed and cut at `maxLength`; "" when absent. */
export function parseAsText(maxLength: number) {
  return createParser({ parse: (value) => value.trim().slice(0, maxLength), serialize: String }).withDefault("");
}

/** A 64-bit id (§2), kept a string; "" when absent or not one. */
export const parseAsId = createParser({ parse: (value) => (isPlatformId(value.trim()) ? value.trim() : null), serialize: String }).withDefault("");
