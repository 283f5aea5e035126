import { csvRecords } from "./csv-stream";
import { planColumns, rowToEvent, type HeaderProblem, type ImportPlan, type RowProblem } from "./event-rows";
import type { SourceRow } from "./import-run";

export type OpenedCsv = { header: string[]; problems: HeaderProblem[]; plan?: ImportPlan; rows: AsyncGenerator<SourceRow> };

/**
 * An event CSV from its byte stream: the header row planned (`planColumns`), then the data rows as
 * the scheduler's source, each mapped (`rowToEvent`) or carrying the reason it is invalid, worded by
 * `describe` (the page translates; the benchmark writes English). Blank lines are skipped. Nothing is
 * read ahead: the preview and the import both pull rows one by one.
 */
export async function openEventCsv(stream: ReadableStream<Uint8Array>, describe: (problems: RowProblem[]) => string): Promise<OpenedCsv> {
  const records = csvRecords(stream);
  const first = await records.next();
  const header = first.done ? [] : first.value.fields;
  const { plan, problems } = planColumns(header);
  async function* rows(): AsyncGenerator<SourceRow> {
    if (!plan) return;
    for await (const record of records) {
      if (record.fields.length === 1 && record.fields[0]!.trim() === "") continue;
      const mapped = rowToEvent(plan, record.fields);
      if (mapped.event) yield { row: record.row, values: record.fields, bytesRead: record.bytesRead, event: mapped.event };
      else yield { row: record.row, values: record.fields, bytesRead: record.bytesRead, reason: describe(mapped.problems) };
    }
  }
  if (!plan) await records.return(undefined);
  return { header, problems, plan, rows: rows() };
}

/** English wording of row problems (the benchmark, tests; the page uses its translations). */
export function describeInEnglish(problems: RowProblem[]): string {
  return problems
    .map((p) => {
      switch (p.code) {
        case "required": return `${p.column}: required`;
        case "tooLong": return `${p.column}: at most ${p.max}`;
        case "range": return `${p.column}: between ${p.min} and ${p.max}`;
        case "tooManyProperties": return `${p.column}: at most ${p.max} ${p.kind} properties`;
        default: return `${p.column}: ${p.code}`;
      }
    })
    .join("; ");
}
