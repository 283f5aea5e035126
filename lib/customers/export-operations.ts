import "server-only";
import { z } from "zod";
import { answer, defineOperations } from "@/lib/http/define-operations";
import type { TaskStartAnswer } from "@/lib/tasks/task-api";

/** The customers export's route: its body is the list's URL state, read by the list's own rules. */

export const exportOperations = defineOperations({
  "customers.export": {
    summary: "Starts the export of the customers list's current filter as a CSV file, a background task (one at a time per tenant: a second start answers the running one)",
    body: z.strictObject({ list: z.string().max(8192, "at most 8192 characters") }),
    output: answer<TaskStartAnswer>(z.object({ task: z.looseObject({ id: z.string(), state: z.string() }), started: z.boolean() })),
    statuses: [202],
  },
});
