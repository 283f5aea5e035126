import { csvRecordCounter } from "@/lib/csv";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
import { addSessionHeaders, errorFromResponse, MUTATION_HEADER, pageOpenAppId, reauthInBrowser } from "./browser-fetch";

/**
 * Downloading a streamed CSV export from the app's API (`/api/export/...`) into a sink: a file the
 * user picked (written as the bytes arrive) or a Blob saved at the end. The request carries what
 * `browser-fetch.ts` requests carry (environment, fallback session token) plus the header the
 * export requires; `401 reauth_required` is followed like there. Progress is the number of CSV
 * records received, the header not counted.
 */

export type CsvSink = {
  write(chunk: Uint8Array): Promise<void>;
  /** All received: keep the file / save the Blob. */
  close(): Promise<void>;
  /** Failed or cancelled: drop what was received (an incomplete export is not left behind). */
  abort(): Promise<void>;
};

/** The export stopped after `rows` rows; nothing was saved. */
export class ExportFailedError extends Error {
  readonly rows: number;
  constructor(rows: number, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "ExportFailedError";
    this.rows = rows;
  }
}

export type CsvDownloadOptions = {
  signal: AbortSignal;
  onProgress?: (rows: number) => void;
  fetch?: typeof fetch;
  openAppId?: () => string | undefined;
  sessionToken?: (openAppId: string) => string | undefined;
  onReauth?: (redirect: string) => void;
};

export async function downloadCsv(url: string, sink: CsvSink, options: CsvDownloadOptions): Promise<{ rows: number }> {
  const headers = new Headers({ Accept: "text/csv", [MUTATION_HEADER]: "1" });
  addSessionHeaders(headers, (options.openAppId ?? pageOpenAppId)(), options.sessionToken);
  let rows = 0;
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { headers, signal: options.signal, credentials: "same-origin", cache: "no-store" });
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new ApiError({ status: 0, code: "network_error", message: error instanceof Error ? error.message : "network error" });
    }
    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (error instanceof ReauthRequiredError) (options.onReauth ?? reauthInBrowser)(error.redirect);
      throw error;
    }
    if (!response.body) throw new ApiError({ status: response.status, code: "empty_body", message: "the export sent nothing" });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const counter = csvRecordCounter();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await sink.write(value); // a slow disk holds back the reads, and so the server's walk
        rows = Math.max(0, counter.push(decoder.decode(value, { stream: true })) - 1);
        options.onProgress?.(rows);
      }
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new ExportFailedError(rows, error);
    }
    await sink.close();
    return { rows };
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}

/** A sink that collects the bytes and saves them as a file when complete (a link with `download`). */
export function blobSink(filename: string): CsvSink {
  let parts: BlobPart[] = [];
  return {
    async write(chunk) {
      parts.push(chunk as Uint8Array<ArrayBuffer>);
    },
    async close() {
      const url = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
      parts = [];
      const link = document.createElement("a");
      link.href = url;
      link.download = filename;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has taken the URL by the next tasks; keep it a while for slow browsers.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
    async abort() {
      parts = [];
    },
  };
}

type SaveFilePicker = (options: { suggestedName: string; types: Array<{ description: string; accept: Record<string, string[]> }> }) => Promise<{
  createWritable(): Promise<{ write(data: Uint8Array): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
}>;

/**
 * Asks where to save with the File System Access API (`showSaveFilePicker`), so the export goes to
 * disk as it arrives; `undefined` where there is none (Firefox, Safari, a cross-origin iframe such
 * as the platform admin's: the caller then uses `blobSink`). Throws `AbortError` when the user
 * closes the picker. Must run in the click's user activation, before anything is awaited.
 */
export async function pickFileSink(filename: string, description: string): Promise<CsvSink | undefined> {
  const picker = (globalThis as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  if (typeof picker !== "function") return undefined;
  let handle: Awaited<ReturnType<SaveFilePicker>>;
  try {
    handle = await picker({ suggestedName: filename, types: [{ description, accept: { "text/csv": [".csv"] } }] });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return undefined; // SecurityError (cross-origin frame), NotAllowedError: fall back to a Blob
  }
  const writable = await handle.createWritable();
  return {
    write: (chunk) => writable.write(chunk),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}
