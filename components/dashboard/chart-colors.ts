/** Colours of the overview's series (≥ 3:1 against white, WCAG 1.4.11), shared by the charts and their legends. */
export const SERIES_COLORS = ["#1d4ed8", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490", "#4d7c0f", "#475569"];
