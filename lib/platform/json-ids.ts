/**
 * Ids as strings, straight from the platform's JSON (§2: ids are `Long`; ARCHITECTURE.md §4: ids are
 * strings in TypeScript and in the app's own JSON). One pass over the UTF-8 bytes turns into JSON
 * strings: every integer literal outside the safe range (so no parser can round it), and every
 * integer under a key in `idKeys` (so small ids are strings too). The result is plain JSON that
 * `JSON.parse` reads losslessly, and that the proxy hands to the browser as is — no decode, parse,
 * walk, stringify and encode per request. Working on bytes is safe: every byte of a multi-byte
 * UTF-8 sequence is >= 0x80, so quotes, brackets and digits are always what they seem.
 * Malformed input keeps its structure; `JSON.parse` (or `ScanInfo.balanced`) then tells.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** Number.MAX_SAFE_INTEGER's 16 digits, to compare integer literals of that length with. */
const MAX_SAFE_DIGITS = Buffer.from(String(Number.MAX_SAFE_INTEGER));

/** What the scan saw: nesting closed properly at the end, and the keys of the top-level object. */
export type ScanInfo = { balanced: boolean; topLevelKeys: string[] };

function isNumberByte(c: number): boolean {
  return (c >= ZERO && c <= NINE) || c === MINUS || c === PLUS || c === DOT || c === LOWER_E || c === UPPER_E;
}

/**
 * An integer literal (JSON has no leading zeros) outside ±Number.MAX_SAFE_INTEGER: 17 digits or more,
 * or 16 digits above MAX_SAFE_INTEGER's, compared digit by digit (no string made per number).
 */
function isUnsafeInteger(buf: Buffer, start: number, end: number): boolean {
  const first = buf[start] === MINUS ? start + 1 : start;
  const digits = end - first;
  if (digits !== MAX_SAFE_DIGITS.length) return digits > MAX_SAFE_DIGITS.length;
  for (let k = 0; k < digits; k++) {
    const d = buf[first + k]!;
    if (d !== MAX_SAFE_DIGITS[k]) return d > MAX_SAFE_DIGITS[k]!;
  }
  return false;
}

/**
 * End index (exclusive) of the JSON string starting at `start` (a quote), or -1. A plain loop: it
 * stays in JIT-compiled code, where `Buffer#indexOf` would cross into C++ once per string.
 */
function stringEnd(buf: Buffer, start: number): number {
  const n = buf.length;
  for (let j = start + 1; j < n; j++) {
    const c = buf[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j++;
  }
  return -1;
}

const keyBytesCache = new WeakMap<ReadonlySet<string>, Buffer[]>();
function keyBytes(idKeys: ReadonlySet<string> | undefined): Buffer[] {
  if (!idKeys || idKeys.size === 0) return [];
  let keys = keyBytesCache.get(idKeys);
  if (!keys) {
    keys = [...idKeys].map((k) => Buffer.from(k));
    keyBytesCache.set(idKeys, keys);
  }
  return keys;
}

/** The bytes of `input` with ids quoted (the same buffer when there is nothing to quote). */
export function quoteIdsInBytes(input: Uint8Array, idKeys?: ReadonlySet<string>, info?: ScanInfo): Buffer {
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const n = buf.length;
  const wanted = keyBytes(idKeys);
  // Container stack: for an object, where its current key lies in `buf`; for an array, the key it
  // sits under (so ids in an array of ids are found).
  const isArray: boolean[] = [];
  const keyStart: number[] = [];
  const keyEnd: number[] = [];
  let depth = -1;
  let expectKey = false;
  // Where the integers to quote are: start and end of each, in pairs.
  const quoted: number[] = [];
  let i = 0;

  const keyIsWanted = (): boolean => {
    if (depth < 0 || wanted.length === 0) return false;
    const start = keyStart[depth]!;
    if (start < 0) return false;
    const length = keyEnd[depth]! - start;
    outer: for (const key of wanted) {
      if (key.length !== length) continue;
      for (let k = 0; k < length; k++) if (buf[start + k] !== key[k]) continue outer;
      return true;
    }
    return false;
  };

  while (i < n) {
    const c = buf[i]!;
    if (c === QUOTE) {
      const end = stringEnd(buf, i);
      if (end < 0) break;
      if (expectKey && depth >= 0 && !isArray[depth]) {
        keyStart[depth] = i + 1;
        keyEnd[depth] = end - 1;
        if (depth === 0 && info) info.topLevelKeys.push(buf.toString("utf8", i + 1, end - 1));
      }
      i = end;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const parentStart = depth >= 0 ? keyStart[depth]! : -1;
      const parentEnd = depth >= 0 ? keyEnd[depth]! : -1;
      depth++;
      isArray[depth] = c === OPEN_ARRAY;
      keyStart[depth] = c === OPEN_ARRAY ? parentStart : -1;
      keyEnd[depth] = c === OPEN_ARRAY ? parentEnd : -1;
      expectKey = c === OPEN_OBJECT;
      i++;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth < 0 || isArray[depth] !== (c === CLOSE_ARRAY)) break;
      depth--;
      expectKey = false;
      i++;
      continue;
    }
    if (c === COLON) {
      expectKey = false;
      i++;
      continue;
    }
    if (c === COMMA) {
      expectKey = depth >= 0 && !isArray[depth];
      i++;
      continue;
    }
    if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let j = i + 1;
      let integer = true;
      while (j < n) {
        const d = buf[j]!;
        if (!isNumberByte(d)) break;
        if (d === DOT || d === LOWER_E || d === UPPER_E) integer = false;
        j++;
      }
      if (integer && ((j - i >= 16 && isUnsafeInteger(buf, i, j)) || keyIsWanted())) quoted.push(i, j);
      i = j;
      continue;
    }
    i++;
  }
  if (info) info.balanced = i >= n && depth === -1;
  if (quoted.length === 0) return buf;
  // Copied piece by piece into one buffer: no view object per piece, as Buffer.concat would need.
  const out = Buffer.allocUnsafe(n + quoted.length);
  let from = 0;
  let to = 0;
  for (let q = 0; q < quoted.length; q += 2) {
    const start = quoted[q]!;
    const end = quoted[q + 1]!;
    to += buf.copy(out, to, from, start);
    out[to++] = QUOTE;
    to += buf.copy(out, to, start, end);
    out[to++] = QUOTE;
    from = end;
  }
  buf.copy(out, to, from, n);
  return out;
}

/** The text of platform JSON with ids quoted. */
export function quoteIds(text: string, idKeys?: ReadonlySet<string>, info?: ScanInfo): string {
  const bytes = Buffer.from(text);
  const out = quoteIdsInBytes(bytes, idKeys, info);
  return out === bytes ? text : out.toString("utf8");
}

/** Platform JSON → value with ids (and every unsafe integer) as decimal strings. */
export function parseWithIdsAsText(json: string | Uint8Array, idKeys?: ReadonlySet<string>): unknown {
  if (typeof json === "string") return JSON.parse(quoteIds(json, idKeys));
  return JSON.parse(quoteIdsInBytes(json, idKeys).toString("utf8"));
}
