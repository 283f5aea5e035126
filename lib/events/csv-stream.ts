import { CsvParser, type CsvOptions } from "./csv";

export type CsvRecord = {
  /** 1-based record number in the file: the header is 1, as in a spreadsheet without multi-line cells. */
  row: number;
  fields: string[];
  /** Bytes of the file read when this record came out (for progress). */
  bytesRead: number;
};

/**
 * The records of a CSV byte stream (a browser `File.stream()`, or Node's `fs.openAsBlob(path).stream()`),
 * decoded as UTF-8 piece by piece. Records are produced as the consumer asks for them, so reading
 * never runs ahead of sending: memory stays bounded by one piece of the file and one record.
 */
export async function* csvRecords(stream: ReadableStream<Uint8Array>, options?: CsvOptions & { signal?: AbortSignal }): AsyncGenerator<CsvRecord> {
  const reader = stream.getReader();
  // `fatal`: a file that is not UTF-8 (e.g. GBK from an old spreadsheet) is refused rather than garbled.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parser = new CsvParser(options);
  let row = 0;
  let bytesRead = 0;
  try {
    for (;;) {
      if (options?.signal?.aborted) return;
      const { value, done } = await reader.read();
      if (done) break;
      bytesRead += value.byteLength;
      for (const fields of parser.push(decoder.decode(value, { stream: true }))) yield { row: ++row, fields, bytesRead };
    }
    for (const fields of [...parser.push(decoder.decode()), ...parser.end()]) yield { row: ++row, fields, bytesRead };
  } finally {
    // Stops reading the file when the consumer stops early (cancel, header error).
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
