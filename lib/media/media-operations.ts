import "server-only";
import { z } from "zod";
import { answer, defineOperations, int, nullableText } from "@/lib/http/define-operations";
import { MAX_IMPORT_FILES, OSS_PATH } from "./import-form";
import { MEDIA_EVENT_TYPES, type MediaImportAnswer, type MediaImportListAnswer } from "./media-api";

/** The media import routes with their schemas (the list: lib/http/app-routes.ts). */

const mediaFile = z.object({ file: z.string(), eventType: z.enum(MEDIA_EVENT_TYPES).optional() });
const mediaImport = z.object({ id: z.string(), startedBy: z.string(), startedByName: nullableText, startedAt: int, files: z.array(mediaFile), taskIds: z.array(z.string()) });

export const mediaOperations = defineOperations({
  "media.imports": { summary: "The media imports started through the app, latest first (§4.6 has no task status)", output: answer<MediaImportListAnswer>(z.object({ imports: z.array(mediaImport) })) },
  "media.import": {
    summary: "Sends a fileList to the platform's import (§4.6) and keeps the task ids it returns",
    statuses: [201],
    body: z.strictObject({
      fileList: z
        .array(z.strictObject({ file: z.string().trim().regex(OSS_PATH, "must be an object-storage file path oss://<bucket>/<object>"), eventType: z.enum(MEDIA_EVENT_TYPES).optional() }))
        .min(1, "at least one file")
        .max(MAX_IMPORT_FILES, `at most ${MAX_IMPORT_FILES} files`),
    }),
    output: answer<MediaImportAnswer>(z.object({ import: mediaImport })),
  },
});
