/**
 * Saved views of the console's list pages: a name and the page's URL state (filters, sort,
 * columns), kept for one staff member or shared with everyone of the tenant. Zod-free: the
 * browser's dialog and the route check the same rules.
 */

/** The list pages that offer saved views. */
export const VIEW_LISTS = ["customers", "orders", "events", "shops"] as const;
export type ViewList = (typeof VIEW_LISTS)[number];

export const MAX_VIEW_NAME = 60;
/** The URL state of a view: longer would be no real filter (the customers URL is well under it). */
export const MAX_VIEW_QUERY = 2000;
/** Views one person keeps per list, and views shared per list. */
export const MAX_VIEWS_PER_OWNER = 50;

export const isViewList = (value: unknown): value is ViewList => typeof value === "string" && (VIEW_LISTS as readonly string[]).includes(value);

/** A name as stored: trimmed, inner runs of space made one. */
export const viewNameOf = (name: string): string => name.trim().replace(/\s+/g, " ");
