import type { SearchParams } from "@/lib/search/types";
import type { IdBatches } from "./customer-export";

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

/** What an export needs of the people index: every id of a search, a page at a time. */
export type ExportSearch = { ids: (key: { openAppId: string; tenantId: string }, request: IndexRequest, signal?: AbortSignal) => AsyncIterable<readonly string[]> };

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

/**
 * Which ids an export covers (a filter → an ids source): a search or a tag exports the index's ids
 * of it, each batch then read live; without one (undefined) the export walks the platform's own
 * filter. The same choice serves a streamed download and a background task.
 */
export function exportIdSource(search: SearchParams | undefined, ids: (request: IndexRequest, signal: AbortSignal) => AsyncIterable<readonly string[]>): IdBatches | undefined {
  if (!search) return undefined;
  const request = indexRequestOf(search);
  return (signal) => ids(request, signal);
}
