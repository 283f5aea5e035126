/**
 * Ids as strings, straight from the platform's JSON text (§2: ids are `Long`, DESIGN.md §4: ids are
 * strings in TypeScript and in the app's own JSON). One pass over the text turns into JSON strings:
 * every integer literal outside the safe range (so no parser can round it), and every integer under
 * a key in `idKeys` (so small ids are strings too). The result is plain JSON that `JSON.parse` reads
 * losslessly, and that the proxy can hand to the browser as is: no parse → walk → stringify per
 * request. Malformed text is returned with its structure untouched; `JSON.parse` then reports it.
 */

const QUOTE = 34; // "
const BACKSLASH = 92;
const OPEN_OBJECT = 123; // {
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91; // [
const CLOSE_ARRAY = 93;
const COLON = 58;
const COMMA = 44;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;

function isNumberChar(c: number): boolean {
  // digits, - + . e E
  return (c >= ZERO && c <= NINE) || c === MINUS || c === 43 || c === 46 || c === 101 || c === 69;
}

function isUnsafeInteger(token: string): boolean {
  const digits = token.charCodeAt(0) === MINUS ? token.length - 1 : token.length;
  if (digits < 16) return false;
  return !Number.isSafeInteger(Number(token));
}

/** End index (exclusive) of the JSON string starting at `start` (a quote), or -1. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > start && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** What the scan saw: nesting closed properly at the end, and the keys of the top-level object. */
export type ScanInfo = { balanced: boolean; topLevelKeys: string[] };

export function quoteIds(text: string, idKeys?: ReadonlySet<string>, info?: ScanInfo): string {
  const n = text.length;
  const wanted = idKeys && idKeys.size > 0 ? [...idKeys] : [];
  // Container stack: for an object, where its current key starts and ends in `text` (no slicing per
  // key: a 50-row page has thousands); for an array, the key it sits under.
  const isArray: boolean[] = [];
  const keyStart: number[] = [];
  const keyEnd: number[] = [];
  let depth = -1;
  let expectKey = false;
  let out = "";
  let last = 0;
  let i = 0;
  const keyIsWanted = (): boolean => {
    if (depth < 0 || wanted.length === 0) return false;
    const start = keyStart[depth]!;
    const length = keyEnd[depth]! - start;
    if (start < 0) return false;
    for (const key of wanted) if (key.length === length && text.startsWith(key, start)) return true;
    return false;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) break;
      if (expectKey && depth >= 0 && !isArray[depth]) {
        keyStart[depth] = i + 1;
        keyEnd[depth] = end - 1;
        if (depth === 0 && info) info.topLevelKeys.push(text.slice(i + 1, end - 1));
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
        const d = text.charCodeAt(j);
        if (!isNumberChar(d)) break;
        if (d === 46 || d === 101 || d === 69) integer = false;
        j++;
      }
      if (integer && ((j - i >= 16 && isUnsafeInteger(text.slice(i, j))) || keyIsWanted())) {
        out += `${text.slice(last, i)}"${text.slice(i, j)}"`;
        last = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  if (info) info.balanced = i >= n && depth === -1;
  return last === 0 ? text : out + text.slice(last);
}

/** Platform JSON → value with ids (and every unsafe integer) as decimal strings. */
export function parseWithIdsAsText(text: string, idKeys?: ReadonlySet<string>): unknown {
  return JSON.parse(quoteIds(text, idKeys));
}
