import "server-only";
import { z } from "zod";
import { answer, defineOperations, int, nullableText, repeated } from "@/lib/http/define-operations";
import { boolParam, intParam } from "@/lib/platform/schema-helpers";
import type { IndexStatus, SearchAnswer } from "./types";

/** The search routes with their schemas (the list: lib/http/app-routes.ts). */

const searchHit = z.object({ id: z.string(), displayName: nullableText, name: nullableText, nickName: nullableText, email: nullableText, mobile: nullableText });
const indexStatus = z.object({
  enabled: z.boolean(),
  phase: z.enum(["none", "backfill", "ready"]),
  indexed: int,
  total: int.nullable(),
  secondsLeft: z.number().nullable(),
  lastChangeAt: int.nullable(),
  syncedAt: int.nullable(),
  error: nullableText,
});

export const searchOperations = defineOperations({
  "search.customers": {
    summary: "The session tenant's customers from the index (ids, names, contacts) with the index's status; ?ids= looks names up instead",
    query: z.strictObject({
      q: z.string().max(200).optional(),
      tag: z.string().min(1).max(64).optional(),
      stage: z.string().max(128).optional(),
      stageEmpty: boolParam.optional(),
      source: z.string().max(128).optional(),
      gender: z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.enum(["0", "1", "2"])).transform(Number).optional(),
      hasMobile: boolParam.optional(),
      hasEmail: boolParam.optional(),
      limit: intParam(1, 200).optional(),
      offset: intParam(0, 9_999_999).optional(),
      ids: z.string().regex(/^\d{1,20}(,\d{1,20}){0,199}$/, "must be up to 200 comma-separated ids").optional(),
    }),
    // A look-up by ids answers `hits` alone.
    output: answer<SearchAnswer>(z.object({ hits: z.array(searchHit), hasMore: z.boolean().optional(), status: indexStatus.optional() })),
  },
  "search.tagCounts": {
    summary: "How many of the session tenant's indexed customers carry each tag (`tags` repeated, up to 200)",
    query: z.strictObject({ tags: repeated(z.string().min(1).max(64)).refine((tags) => tags.length <= 200, "at most 200 tags") }),
    output: answer<{ counts: Record<string, number> }>(z.object({ counts: z.record(z.string(), int) })),
  },
  "search.status": { summary: "How far the tenant's index is", output: answer<IndexStatus>(indexStatus) },
  "search.resync": { summary: "The index emptied and read again from the platform", statuses: [202], output: answer<IndexStatus>(indexStatus) },
});
