import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import { intParam } from "@/lib/platform/schema-helpers";
import { LIMITS } from "@/lib/platform/limits";
import { MAX_BULK_TAGS } from "@/lib/customers/bulk-tags";
import { definitionSchema } from "./segment-conditions";
import { PREVIEW_SORTS } from "./segment-query";
import { SCHEDULES } from "./segment-store";
import type { SegmentAnswer, SegmentCountAnswer, SegmentDetailAnswer, SegmentListAnswer, SegmentPreviewAnswer, SegmentSyncAnswer, SegmentTagAnswer } from "./segment-types";

/**
 * The segments routes with their schemas (the list: lib/http/app-routes.ts). A definition is
 * checked by `definitionSchema` (segment-conditions.ts): an unknown field, a malformed value or a
 * day out of range is the wrapper's 422 naming `body.definition.conditions.N.<field>`.
 */

const segmentId = z.object({ id: z.string().uuid("is not a segment id") });
const name = z.string({ error: "must be text" }).trim().min(1, "is required").max(255, "at most 255 characters");
const schedule = z.enum(SCHEDULES, { error: `must be one of ${SCHEDULES.join(", ")}` });

const anyObject = z.looseObject({});

export const segmentsOperations = defineOperations({
  "segments.list": { summary: "The tenant's saved segments", output: answer<SegmentListAnswer>(z.object({ segments: z.array(anyObject) })) },
  "segments.create": {
    summary: "Saves a segment for the tenant",
    body: z.strictObject({ name, definition: definitionSchema, schedule: schedule.optional() }),
    statuses: [201],
    output: answer<SegmentAnswer>(z.object({ segment: anyObject })),
  },
  "segments.get": { summary: "A segment with its latest syncs", params: segmentId, output: answer<SegmentDetailAnswer>(z.object({ segment: anyObject, runs: z.array(anyObject), running: z.boolean() })) },
  "segments.update": {
    summary: "Renames a segment, changes its conditions or its schedule",
    params: segmentId,
    body: z.strictObject({ name: name.optional(), definition: definitionSchema.optional(), schedule: schedule.optional() }),
    output: answer<SegmentAnswer>(z.object({ segment: anyObject })),
  },
  "segments.delete": { summary: "Forgets a segment, its synced membership and history (the list stays)", params: segmentId, output: answer<{ deleted: string }>(z.object({ deleted: z.string() })) },
  "segments.count": {
    summary: "How many indexed customers a definition holds, and how many the index has",
    body: z.strictObject({ definition: definitionSchema }),
    output: answer<SegmentCountAnswer>(z.object({ count: int, indexed: int, ready: z.boolean() })),
  },
  "segments.preview": {
    summary: "A page of a definition's people with the fields its conditions use",
    body: z.strictObject({
      definition: definitionSchema,
      sort: z.enum(PREVIEW_SORTS).optional(),
      order: z.enum(["asc", "desc"]).optional(),
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().min(0).max(1_000_000).optional(),
    }),
    output: answer<SegmentPreviewAnswer>(z.object({ rows: z.array(anyObject), hasMore: z.boolean() })),
  },
  "segments.sync": {
    summary: "Starts syncing the segment into a static list (§4.4): an existing list, the segment's own, or a new one",
    params: segmentId,
    body: z.strictObject({
      listId: z.string().regex(/^\d{1,19}$/, "must be a list id").optional(),
      newListName: z.string().trim().min(1, "is required").max(LIMITS.listName, `at most ${LIMITS.listName} characters`).optional(),
      confirmEveryone: z.boolean().optional(),
    }),
    statuses: [202],
    output: answer<SegmentSyncAnswer>(z.object({ started: z.boolean(), taskId: z.string(), segment: anyObject })),
  },
  "segments.tag": {
    summary: "Adds tags to every customer of the segment (§4.5 addCustomerTag, one request per customer)",
    params: segmentId,
    body: z.strictObject({ names: z.array(z.string().trim().min(1, "is required").max(LIMITS.tagName, `at most ${LIMITS.tagName} characters`)).min(1, "is required").max(MAX_BULK_TAGS, `at most ${MAX_BULK_TAGS} names`) }),
    output: answer<SegmentTagAnswer>(z.object({ tagged: int, failed: int, failures: z.array(anyObject) })),
  },
  "segments.export": {
    summary: "The segment's people as the customers page's CSV (its columns by ?columns=, id first)",
    params: segmentId,
    query: z.strictObject({ columns: z.string().max(2000).optional(), offset: intParam(0, 0).optional() }),
  },
});
