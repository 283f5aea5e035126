/**
 * The platform's field limits (§8, §4), in one place and without zod, so that the operation
 * schemas (`resources.ts`, `operations.ts`), the console's forms and the sandbox all read the same
 * numbers. Lengths are in characters, counted as Unicode code points by `charLength` everywhere
 * (never UTF-16 units: "𠮷" is one character to the platform and to staff).
 */
export const LIMITS = {
  /** An access token's lifetime when the token endpoint does not say (§4.7). */
  accessTokenSeconds: 7200,
  identityType: 32,
  identityValue: 128,
  identityName: 256,
  address: 512,
  listName: 255,
  dimensionKey: 255,
  dimensionName: 255,
  tagName: 32,
  tagDimension: 255,
  externalTagName: 64,
  eventId: 32,
  eventTarget: 255,
  eventSummaryBytes: 1024,
  eventsPerBatch: 100,
  eventQueryMax: 1000,
  listMemberRows: 10_000,
  customProperties: { string: 40, number: 3, money: 10 },
} as const;

/** Length in characters as the platform counts them: Unicode code points. */
export function charLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** `text` is longer than `max` characters. Code points never outnumber UTF-16 units: only a string that may be too long is counted. */
export function longerThan(text: string, max: number): boolean {
  return text.length > max && charLength(text) > max;
}
