import { MEDIA_EVENT_TYPES, type MediaFile, type MediaEventType } from "./media-api";

/**
 * The media import form (§4.6): rows of an object-storage path and its event type, checked before
 * anything is sent. Pure: the page, its tests and the app's route share it.
 */

/** `column`: no `eventType` is sent; the file's first column names each row's type (§4.6). */
export type EventChoice = MediaEventType | "column";
export const EVENT_CHOICES: readonly EventChoice[] = [...MEDIA_EVENT_TYPES, "column"];

export type ImportRow = { key: number; file: string; eventType: EventChoice };

export const MAX_IMPORT_FILES = 50;

/**
 * An object-storage path as §4.6 shows it: `oss://<bucket>/<object>`. The bucket follows the
 * object stores' naming (3–63 lower-case letters, digits, hyphens); the object is a file, not a folder.
 */
export const OSS_PATH = /^oss:\/\/[a-z0-9][a-z0-9-]{1,61}[a-z0-9]\/[^\s]*[^\s/]$/;

export type ImportProblem = { code: "required" } | { code: "ossPath" } | { code: "duplicate"; first: number } | { code: "tooMany"; max: number };

export const newImportRow = (key: number): ImportRow => ({ key, file: "", eventType: "event.mediaView" });

/** Problems by row field key (`rows.<i>.file`), and `rows` for the list as a whole. */
export function validateImportRows(rows: readonly ImportRow[]): Record<string, ImportProblem> {
  const problems: Record<string, ImportProblem> = {};
  if (rows.length > MAX_IMPORT_FILES) problems.rows = { code: "tooMany", max: MAX_IMPORT_FILES };
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const file = row.file.trim();
    if (file === "") problems[`rows.${i}.file`] = { code: "required" };
    else if (!OSS_PATH.test(file)) problems[`rows.${i}.file`] = { code: "ossPath" };
    else if (seen.has(file)) problems[`rows.${i}.file`] = { code: "duplicate", first: seen.get(file)! + 1 };
    else seen.set(file, i);
  });
  return problems;
}

/** The `fileList` to send: `eventType` left out for "from the first column". */
export function fileListOf(rows: readonly ImportRow[]): MediaFile[] {
  return rows.map((row) => (row.eventType === "column" ? { file: row.file.trim() } : { file: row.file.trim(), eventType: row.eventType }));
}
