/**
 * Typed parsers of URL query values, and reading and writing a map of them: the console's URL state
 * (`defineUrlState`, lib/ui/url-params.ts) is built on these, on the server and in the browser.
 * The console's own instead of nuqs: the pages need only parsers with defaults, a loader and a
 * writer, and nuqs brought about 6 kB (gzip) of queues and adapters into every route's first load.
 * A value that does not parse (or whose parser throws) reads as the default; a value equal to its
 * default (`eq`, else `===`) is left out of the URL.
 */

export type Parser<T> = {
  /** The value of one query parameter, or null when it is not a valid one. */
  parse: (value: string) => T | null;
  serialize: (value: T) => string;
  /** Equality to the default (arrays); `===` when absent. */
  eq?: (a: T, b: T) => boolean;
};

export type ParserWithDefault<T> = Parser<T> & { defaultValue: T };

export type UrlParser<T> = Parser<T> & { withDefault: (defaultValue: T) => ParserWithDefault<T> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a map holds parsers of any value type
export type ParserMap = Record<string, ParserWithDefault<any>>;

/** The values a map of parsers reads. */
export type ValuesOf<P extends ParserMap> = { [K in keyof P]: P[K]["defaultValue"] };

/** Query keys that differ from a value's name (`sort` written as `sidx`). */
export type UrlKeys<P extends ParserMap> = Partial<Record<keyof P, string>>;

/** Next's `searchParams` object of a page: a repeated key is a list. */
export type SearchParams = Record<string, string | string[] | undefined>;

export function createParser<T>(parser: Parser<T>): UrlParser<T> {
  return { ...parser, withDefault: (defaultValue) => ({ ...parser, defaultValue }) };
}

/** One of `values`, else nothing. */
export function parseAsStringLiteral<const V extends readonly string[]>(values: V): UrlParser<V[number]> {
  return createParser({ parse: (value) => (values.includes(value) ? (value as V[number]) : null), serialize: String });
}

const firstOf = (source: URLSearchParams | SearchParams, key: string): string | null => {
  if (source instanceof URLSearchParams) return source.get(key);
  const value = source[key];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/** Every value of the map from a URL's query (the first of a repeated key). */
export function loadValues<P extends ParserMap>(parsers: P, urlKeys: UrlKeys<P>, source: URLSearchParams | SearchParams): ValuesOf<P> {
  const values: Record<string, unknown> = {};
  for (const [key, parser] of Object.entries(parsers)) {
    const query = firstOf(source, urlKeys[key] ?? key);
    let value: unknown = null;
    try {
      value = query === null ? null : parser.parse(query);
    } catch {
      // A parser that throws refuses the value, as one that returns null.
    }
    values[key] = value ?? parser.defaultValue;
  }
  return values as ValuesOf<P>;
}

/** `search` with the map's keys set to `values` (in the map's order); a default value removes its key. */
export function writeValues<P extends ParserMap>(parsers: P, urlKeys: UrlKeys<P>, search: URLSearchParams, values: Partial<ValuesOf<P>>): URLSearchParams {
  for (const [key, parser] of Object.entries(parsers)) {
    const value = values[key];
    if (value === undefined) continue;
    const urlKey = urlKeys[key] ?? key;
    if (value === null || (parser.eq ? parser.eq(value, parser.defaultValue) : value === parser.defaultValue)) search.delete(urlKey);
    else search.set(urlKey, parser.serialize(value));
  }
  return search;
}
