import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The rules axe checks: WCAG 2.1 A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** axe with the WCAG 2.1 A/AA rules over the page, or only inside `include` (e.g. the console's iframe). */
export function axeScan(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  return (include ? builder.include(include) : builder).analyze();
}

/** axe (as `axeScan`) finds nothing; a failure names each rule and its elements. */
export async function expectAccessible(page: Page, options: { include?: string; label?: string } = {}) {
  const results = await axeScan(page, options.include);
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), options.label).toEqual([]);
}
