"use client";
import { useRouter } from "next/navigation";
import type { AnchorHTMLAttributes } from "react";

/**
 * A link to a console page: a plain click is followed by Next's router (no document load); a new
 * tab, a modified or middle click, a download stays the browser's. Instead of next/link, which adds
 * about 3 kB (gzip) to every route's first load for viewport prefetching, which the console's pages
 * (dynamic, no loading boundary) get nothing from. The shell's leave guard still sees the click
 * first (a capture listener on the document).
 */
export function AppLink({ href, replace, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; /** Replace the history entry (a list's pages), not push. */ replace?: boolean }) {
  const router = useRouter();
  return (
    <a
      href={href}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        const newTab = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || (props.target && props.target !== "_self");
        if (event.defaultPrevented || newTab || props.download !== undefined) return;
        event.preventDefault();
        if (replace) router.replace(href);
        else router.push(href);
      }}
    />
  );
}
