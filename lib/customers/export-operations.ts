import "server-only";
import { z } from "zod";
import { defineOperations, type AppSchemas } from "@/lib/http/define-operations";

/** The customers export's route: its query is the list's URL state, read by the list's own rules. */

export const exportOperations = defineOperations({
  "customers.export": {
    summary: "The customers list's current filter as a CSV file (the list's URL state; unknown values are left out as on the page)",
    query: z.record(z.string(), z.unknown()) as unknown as NonNullable<AppSchemas["query"]>,
  },
});
