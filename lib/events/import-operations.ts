import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import { MAX_BATCHES_PER_REQUEST, type EventImportAnswer } from "./import-api";

/** The event import's route with its schemas (the list: lib/http/app-routes.ts). */

export const importOperations = defineOperations({
  "events.import": {
    summary: "Up to 10 batchPushEvents batches (§4.3) sent one after another; one result per batch",
    body: z.strictObject({ batches: z.array(z.unknown()).min(1, "at least one batch").max(MAX_BATCHES_PER_REQUEST, `at most ${MAX_BATCHES_PER_REQUEST} batches per request`) }),
    output: answer<EventImportAnswer>(z.object({ results: z.array(z.looseObject({ status: z.enum(["stored", "failed", "not_sent"]), httpStatus: int.optional() })) })),
  },
});
