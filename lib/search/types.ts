/** What the app's search routes answer (shared by the server and the console). */

export type SearchHit = {
  id: string;
  displayName: string | null;
  name: string | null;
  nickName: string | null;
  email: string | null;
  mobile: string | null;
};

export type IndexStatus = {
  enabled: boolean;
  phase: "none" | "backfill" | "ready";
  indexed: number;
  total: number | null;
  /** Seconds left in the backfill, from its pace so far. */
  secondsLeft: number | null;
  /** Epoch ms of the last change applied / the last completed poll. */
  lastChangeAt: number | null;
  syncedAt: number | null;
  error: string | null;
};

export type SearchAnswer = { hits: SearchHit[]; hasMore: boolean; status: IndexStatus };

/** The index-side filters the customers page sends beside `q` and `tag` (the platform applies the rest live). */
export type SearchParams = {
  q?: string;
  tag?: string;
  stage?: string;
  stageEmpty?: boolean;
  source?: string;
  gender?: string;
  hasMobile?: string;
  hasEmail?: string;
  limit: number;
  offset?: number;
};
