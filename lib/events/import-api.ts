/**
 * The event import's contract, shared by the browser and the server (no server code here).
 *
 * `POST /api/events/import?name=…&rule=date|md5&locale=…` with the CSV file as the body
 * (`Content-Type: text/csv`) stores the file (import-uploads.ts) and starts the import as a
 * background task of kind `events.import` (one at a time per tenant): `202 { task, started: true }`,
 * or `200 { task, started: false }` with the import already running, the file not read. Refused:
 * 413 over `MAX_UPLOAD_BYTES`, 400 for an empty file or one that is not UTF-8, 415 for another
 * content type, 422 for the query. The task's progress, Stop and its failure report are the task
 * routes' (`tasks.*`).
 */

/** The kind of the import's background task. */
export const EVENT_IMPORT_TASK = "events.import";

/**
 * The largest file the import takes, 50 MB: some 500,000 events at ~100 bytes a row, hours of
 * sending at the platform's pace (§8), and what the app's store should hold for a tenant at once
 * without becoming a file store. A larger export is split into several files, each its own import.
 */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** The content type the file is sent with. */
export const UPLOAD_CONTENT_TYPE = "text/csv";
