/**
 * A small streaming CSV parser (RFC 4180): fields separated by commas, records by CRLF (LF and a lone
 * CR are accepted too), fields in double quotes may hold commas, line breaks and doubled quotes `""`.
 * A byte-order mark at the start is dropped. Text is pushed in pieces of any size (a piece may end in
 * the middle of a field, a quote pair or a CRLF) and whole records come out, so a file of any size is
 * read with memory bounded by one record (`maxRecordChars`).
 *
 * Lenient where RFC 4180 is strict, as spreadsheets are: a quote inside an unquoted field, or text
 * after a closing quote, is kept as written.
 */

export class CsvError extends Error {
  constructor(
    message: string,
    readonly record: number,
  ) {
    super(message);
    this.name = "CsvError";
  }
}

export type CsvOptions = {
  /** A record longer than this (an unclosed quote, a binary file) stops the parse; default 1 MiB of text. */
  maxRecordChars?: number;
};

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

export class CsvParser {
  private field = "";
  private record: string[] = [];
  /** Characters of the fields of `record` (memory bound). */
  private recordChars = 0;
  /** Inside a quoted field. */
  private quoted = false;
  /** Just read a quote inside a quoted field: either the closing quote or the first of `""`. */
  private quoteSeen = false;
  /** The last piece ended in CR: a LF at the start of the next one belongs to it. */
  private afterCR = false;
  /** At the start of a field (a quote here opens a quoted field). */
  private fieldStart = true;
  private started = false;
  /** Records completed so far (blank lines included), 1-based numbering for errors. */
  private count = 0;
  private readonly maxRecordChars: number;

  constructor(options: CsvOptions = {}) {
    this.maxRecordChars = options.maxRecordChars ?? 1024 * 1024;
  }

  /** Records completed by this piece of text. A blank line is a record of one empty field. */
  push(text: string): string[][] {
    const out: string[][] = [];
    let i = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    const n = text.length;
    let runStart = i; // start of the plain run of characters not yet copied into `field`
    const flushRun = (end: number) => {
      if (end > runStart) this.field += text.slice(runStart, end);
    };
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (this.afterCR) {
        this.afterCR = false;
        if (c === LF) {
          runStart = i + 1;
          continue;
        }
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === QUOTE) {
            // `""` inside quotes: one quote; the run restarts at the second one.
            runStart = i;
            continue;
          }
          this.quoted = false; // the quote closed the field; fall through to the unquoted handling
          runStart = i;
        } else {
          if (c === QUOTE) {
            flushRun(i);
            this.quoteSeen = true;
            runStart = i + 1;
          }
          continue;
        }
      }
      if (c === COMMA) {
        flushRun(i);
        this.endField();
        runStart = i + 1;
      } else if (c === CR || c === LF) {
        flushRun(i);
        this.endField();
        out.push(this.endRecord());
        if (c === CR) this.afterCR = true;
        runStart = i + 1;
      } else if (c === QUOTE && this.fieldStart) {
        this.quoted = true;
        this.fieldStart = false;
        runStart = i + 1;
      } else {
        this.fieldStart = false;
      }
    }
    flushRun(n);
    if (this.field.length + this.recordChars > this.maxRecordChars) {
      throw new CsvError(`record ${this.count + 1} is longer than ${this.maxRecordChars} characters (an unclosed quote?)`, this.count + 1);
    }
    return out;
  }

  /** The last record, when the text does not end with a line break. */
  end(): string[][] {
    if (this.quoted && !this.quoteSeen) throw new CsvError(`record ${this.count + 1} has a quoted field that is never closed`, this.count + 1);
    if (this.fieldStart && this.field === "" && this.record.length === 0 && !this.quoteSeen) return [];
    this.quoted = false;
    this.quoteSeen = false;
    this.endField();
    return [this.endRecord()];
  }

  private endField() {
    this.record.push(this.field);
    this.recordChars += this.field.length;
    this.field = "";
    this.fieldStart = true;
  }

  private endRecord(): string[] {
    const record = this.record;
    this.record = [];
    this.recordChars = 0;
    this.count += 1;
    return record;
  }
}

/** Parses a whole text (tests, small inputs). */
export function parseCsv(text: string, options?: CsvOptions): string[][] {
  const parser = new CsvParser(options);
  return [...parser.push(text), ...parser.end()];
}
