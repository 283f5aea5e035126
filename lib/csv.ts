/**
 * The app's one CSV writer (the customers export, the event import's failure report; the reader is
 * lib/events/csv.ts). CSV as RFC 4180 writes it (comma separated, CRLF line ends, a field with a
 * comma, quote, CR or LF in double quotes, quotes doubled; also one with leading or trailing
 * white space, which spreadsheets would trim), with two additions for spreadsheets:
 * - the file starts with a UTF-8 byte order mark, without which Excel reads UTF-8 as the local
 *   code page and Chinese text comes out garbled;
 * - a text cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` so a spreadsheet
 *   shows it instead of running it as a formula (OWASP "CSV injection"). This also keeps a mobile
 *   like `+86 138…` from being read as a formula. Numbers and booleans are written as they are.
 */

export const UTF8_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One field. `null` / `undefined` are empty; objects are written as JSON text. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  let text = typeof value === "string" ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/**
 * Counts the records of CSV text arriving in pieces: a line end outside quotes ends a record
 * (a quoted field may hold line breaks). Used for the export's progress on the browser side.
 */
export function csvRecordCounter(): { push(text: string): number; readonly count: number } {
  let quoted = false;
  let count = 0;
  return {
    push(text: string) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 34) quoted = !quoted; // a doubled quote toggles twice: no change
        else if (c === 10 && !quoted) count++;
      }
      return count;
    },
    get count() {
      return count;
    },
  };
}

/** `customers-2026-11-22.csv`: the day in the platform's home time zone (UTC+8, §2). */
export function exportFileName(prefix: string, now = new Date()): string {
  return `${prefix}-${new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10)}.csv`;
}
