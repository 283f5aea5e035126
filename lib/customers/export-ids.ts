import type { SearchParams } from "@/lib/search/types";

/** The index's filters of an export (the search box, the tag and what the index holds beside them). */
export type IndexRequest = {
  q?: string;
  tag?: string;
  stage?: string;
  stageEmpty?: boolean;
  source?: string;
  gender?: number;
  hasMobile?: boolean;
  hasEmail?: boolean;
};

/** The customers page's search (URL strings) as the index's request. */
export function indexRequestOf(search: SearchParams): IndexRequest {
  return {
    ...(search.q ? { q: search.q } : {}),
    ...(search.tag ? { tag: search.tag } : {}),
    ...(search.stageEmpty ? { stageEmpty: true } : search.stage ? { stage: search.stage } : {}),
    ...(search.source ? { source: search.source } : {}),
    ...(search.gender ? { gender: Number(search.gender) } : {}),
    ...(search.hasMobile ? { hasMobile: search.hasMobile === "true" } : {}),
    ...(search.hasEmail ? { hasEmail: search.hasEmail === "true" } : {}),
  };
}
