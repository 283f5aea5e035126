import "server-only";
import { z } from "zod";
import { answer, defineOperations } from "@/lib/http/define-operations";
import { LOCALES } from "@/lib/i18n/locales";
import type { TaskStartAnswer } from "@/lib/tasks/task-api";
import { MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPE } from "./import-api";

/** The event import's route with its schemas (the list: lib/http/app-routes.ts; the contract: import-api.ts). */

export const importOperations = defineOperations({
  "events.import": {
    summary: "Uploads an event CSV file and starts its import as a background task (§4.3 batchPushEvents; one at a time per tenant: a second start answers the running one, its file not read)",
    query: z.strictObject({
      /** The file's name as chosen (shown with the task). */
      name: z.string().min(1, "required").max(255, "at most 255 characters"),
      /** The §2.3 duplicate rule of rows without an externalId. */
      rule: z.enum(["date", "md5"]),
      /** The language the failure report's reasons are written in. */
      locale: z.enum(LOCALES),
    }),
    upload: { contentType: UPLOAD_CONTENT_TYPE, maxBytes: MAX_UPLOAD_BYTES },
    output: answer<TaskStartAnswer>(z.object({ task: z.looseObject({ id: z.string(), state: z.string() }), started: z.boolean() })),
    statuses: [202, 200],
  },
});
