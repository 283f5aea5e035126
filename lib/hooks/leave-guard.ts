/**
 * Which clicks leave the page: the in-app navigation the unsaved-changes guard asks about
 * (components/shell/leave-guard.tsx). A link to another page of this origin, followed in this tab
 * by a plain click; not a download, a new tab (target, a modifier key, the middle button), an
 * in-page anchor, or the page itself.
 */
export type LinkClick = {
  href: string | null;
  target: string | null;
  download: boolean;
  button: number;
  modifier: boolean;
  defaultPrevented: boolean;
};

export function leavesPage(click: LinkClick, current: { href: string; origin: string }): boolean {
  if (click.defaultPrevented || click.button !== 0 || click.modifier || click.download || !click.href) return false;
  if (click.target && click.target !== "_self") return false;
  let next: URL;
  try {
    next = new URL(click.href, current.href);
  } catch {
    return false;
  }
  if (next.origin !== current.origin) return false;
  const here = new URL(current.href);
  // Only the fragment differs: the page stays.
  return !(next.pathname === here.pathname && next.search === here.search);
}
