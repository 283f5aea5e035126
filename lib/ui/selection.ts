/**
 * The rows selected on a list page for a bulk action (customers, list members): ids (strings, §2
 * 64-bit) with the label shown for each (name, or the id), in the order they were selected. The
 * list controller (lib/ui/list-controller.ts) holds it in the page's React state, not in the URL:
 * it survives paging and filter changes while the page is open, and a shared link does not carry
 * someone's selection.
 */

export type Selection = ReadonlyMap<string, string>;
export type SelectableRow = { id: string; label: string };
/** The header checkbox: all rows of the page selected, some (indeterminate), or none. */
export type PageSelection = "all" | "some" | "none";

export const EMPTY_SELECTION: Selection = new Map();

export function toggleOne(selection: Selection, row: SelectableRow): Selection {
  const out = new Map(selection);
  if (out.has(row.id)) out.delete(row.id);
  else out.set(row.id, row.label);
  return out;
}

export function pageSelection(selection: Selection, rows: readonly SelectableRow[]): PageSelection {
  const on = rows.filter((r) => selection.has(r.id)).length;
  if (on === 0) return "none";
  return on === rows.length ? "all" : "some";
}

/** The header checkbox: a page fully selected is deselected; otherwise all of its rows are selected. Other pages' choices stay. */
export function togglePage(selection: Selection, rows: readonly SelectableRow[]): Selection {
  const out = new Map(selection);
  if (pageSelection(selection, rows) === "all") for (const r of rows) out.delete(r.id);
  else for (const r of rows) if (!out.has(r.id)) out.set(r.id, r.label);
  return out;
}

export function withoutIds(selection: Selection, ids: Iterable<string>): Selection {
  const out = new Map(selection);
  for (const id of ids) out.delete(id);
  return out.size === selection.size ? selection : out;
}
