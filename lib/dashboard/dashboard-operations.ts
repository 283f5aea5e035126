import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import type { TaskStartAnswer } from "@/lib/tasks/task-api";
import type { DashboardAnswer } from "./dashboard-data";

/** The overview's routes with their schemas (the list: lib/http/app-routes.ts). */

const figure = z.looseObject({ ok: z.boolean(), code: z.string().optional(), message: z.string().optional() }).meta({ description: "a computed figure (`ok: true` and its values) or why it could not be (`ok: false`, code, message)" });

export const dashboardOperations = defineOperations({
  "dashboard.get": { summary: "The overview's figures of the tenant, as last computed in the background", output: answer<DashboardAnswer>(z.object({ data: z.looseObject({ asOf: z.string(), calls: int, customers: z.record(z.string(), figure), events: figure, orders: figure }), cached: z.boolean(), staleSince: z.string().nullable() })) },
  "dashboard.refresh": {
    summary: "Computes the figures again as the tenant's background task (one at a time: a second start answers the running one)",
    output: answer<TaskStartAnswer>(z.object({ task: z.looseObject({ id: z.string(), state: z.string() }), started: z.boolean() })),
    statuses: [202],
  },
});
