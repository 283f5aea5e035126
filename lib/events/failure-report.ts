/**
 * Failed rows written to an import's failure report (the task's file, import-task.ts: row number,
 * reason, the row's own cells); beyond this only the count grows, so the stored file stays bounded.
 */
export const MAX_REPORT_ROWS = 100_000;
