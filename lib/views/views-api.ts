import type { ViewList } from "./view-rules";

/** What the saved-view routes answer (the browser's contract; no server code). */
export type SavedView = {
  id: string;
  list: ViewList;
  name: string;
  /** The list's URL query, normalized by the list's own parsers (no page: a view opens on page 1). */
  query: string;
  /** Shared with everyone of the tenant; else the caller's own. */
  shared: boolean;
  createdBy: { userId: string; name: string };
  /** The caller may delete it (their own, or a shared one they created). */
  deletable: boolean;
  updatedAt: number;
};
export type SavedViewListAnswer = { views: SavedView[] };
export type SavedViewAnswer = { view: SavedView; replaced: boolean };
