import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import { MAX_VIEW_NAME, MAX_VIEW_QUERY, VIEW_LISTS, viewNameOf } from "./view-rules";
import type { SavedViewAnswer, SavedViewListAnswer } from "./views-api";

/** The saved-view routes with their schemas (the list: lib/http/app-routes.ts). */

const list = z.enum(VIEW_LISTS, { error: `must be one of ${VIEW_LISTS.join(", ")}` });
const view = z.object({
  id: z.string(),
  list,
  name: z.string(),
  query: z.string(),
  shared: z.boolean(),
  createdBy: z.object({ userId: z.string(), name: z.string() }),
  deletable: z.boolean(),
  updatedAt: int,
});

export const viewsOperations = defineOperations({
  "views.list": {
    summary: "The caller's saved views of a list page and the tenant's shared ones",
    query: z.strictObject({ list }),
    output: answer<SavedViewListAnswer>(z.object({ views: z.array(view) })),
  },
  "views.save": {
    summary: "Saves a list page's filters, sort and columns under a name (409 view_exists unless replace)",
    statuses: [200, 201],
    body: z.strictObject({
      list,
      name: z
        .string()
        .transform(viewNameOf)
        .pipe(z.string().min(1, "a name is required").max(MAX_VIEW_NAME, `at most ${MAX_VIEW_NAME} characters`)),
      query: z.string().max(MAX_VIEW_QUERY, `at most ${MAX_VIEW_QUERY} characters`),
      shared: z.boolean().default(false),
      replace: z.boolean().default(false),
    }),
    output: answer<SavedViewAnswer>(z.object({ view, replaced: z.boolean() })),
  },
  "views.delete": { summary: "Deletes a saved view (one's own, or a shared one one shared)", params: z.strictObject({ id: z.uuid("must be a view id") }), output: answer<{ deleted: true }>(z.object({ deleted: z.literal(true) })) },
});
