import { parseAsStringLiteral } from "@/lib/ui/url-parsers";
import { defineList } from "@/lib/ui/list-state";
import { defineUrlState, parseAsOrder } from "@/lib/ui/url-params";

/** Sort keys of the media imports page (the imports started through the app, answered whole). */
export const MEDIA_IMPORT_SORTS = ["started", "by"] as const;
export type MediaImportSort = (typeof MEDIA_IMPORT_SORTS)[number];

/** The media imports page's sort in its URL (latest first by default). */
export const mediaImportList = defineList(
  defineUrlState({ sort: parseAsStringLiteral(MEDIA_IMPORT_SORTS).withDefault("started"), order: parseAsOrder("desc") }, { sort: "sidx", order: "sord" }),
);
