import "server-only";
import { z } from "zod";
import { answer, defineOperations } from "@/lib/http/define-operations";
import { isPlatformId } from "@/lib/platform/ids";
import type { TaskStartAnswer } from "@/lib/tasks/task-api";

/** The customers export's route: its body is the list's URL state, read by the list's own rules. */

export const exportOperations = defineOperations({
  "customers.export": {
    summary: "Starts the export of the customers list's current filter, or of one list's members, as a CSV file, a background task (one at a time per tenant: a second start answers the running one)",
    body: z.strictObject({
      list: z.string().max(8192, "at most 8192 characters"),
      /** The members of this list instead of the list's filter (§4.4 listMembers, read live), in the same CSV. */
      listId: z.string().refine(isPlatformId, "must be a list id (digits)").optional(),
    }),
    output: answer<TaskStartAnswer>(z.object({ task: z.looseObject({ id: z.string(), state: z.string() }), started: z.boolean() })),
    statuses: [202],
  },
});
