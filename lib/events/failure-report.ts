import { csvRecord } from "@/lib/csv";

/** Failed rows kept for the report; beyond this only the count grows (memory stays bounded). */
export const MAX_REPORT_ROWS = 100_000;

/**
 * The downloadable report of an import: one CSV line per failed row (row number in the file, the
 * reason, then the row's original cells under the file's own header), so the file can be fixed and
 * imported again. Starts with a byte-order mark so spreadsheets read the Chinese text as UTF-8.
 */
export class FailureReport {
  private readonly lines: string[] = [];
  count = 0;

  constructor(
    private readonly header: readonly string[],
    private readonly maxRows = MAX_REPORT_ROWS,
  ) {}

  add(row: number, values: readonly string[], reason: string): void {
    this.count += 1;
    if (this.lines.length < this.maxRows) this.lines.push(csvRecord([String(row), reason, ...values]));
  }

  get truncated(): boolean {
    return this.count > this.lines.length;
  }

  /** The rows kept, in the order they failed (which is not always file order: batches finish out of order). */
  get kept(): number {
    return this.lines.length;
  }

  /** The report's text in pieces (for a Blob). */
  parts(labels: { row: string; reason: string } = { row: "row", reason: "reason" }): string[] {
    return ["\uFEFF", csvRecord([labels.row, labels.reason, ...this.header]), ...this.lines];
  }
}
