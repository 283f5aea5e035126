/** The contract of `/api/media/imports` (§4.6), shared by the route handler and the browser. */

/** §4.6 event types: exposure, click; absent = the file's first column names each row's type. */
export const MEDIA_EVENT_TYPES = ["event.mediaView", "event.mediaClick"] as const;
export type MediaEventType = (typeof MEDIA_EVENT_TYPES)[number];

export type MediaFile = { file: string; eventType?: MediaEventType };

/** `POST /api/media/imports` body. */
export type MediaImportWrite = { fileList: MediaFile[] };

/** One import as the app remembers it: who started it, when, which files, the task ids returned. */
export type MediaImport = {
  id: string;
  startedBy: string;
  startedByName: string | null;
  startedAt: number;
  files: MediaFile[];
  taskIds: string[];
};

export type MediaImportAnswer = { import: MediaImport };
export type MediaImportListAnswer = { imports: MediaImport[] };
export const MAX_IMPORT_HISTORY = 200;
