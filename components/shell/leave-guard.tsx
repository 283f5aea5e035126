"use client";
import { useEffect } from "react";
import { hasUnsavedChanges } from "@/lib/api/reauth";
import { leavesPage } from "@/lib/hooks/leave-guard";
import { useI18n } from "@/components/i18n/i18n-provider";

/**
 * Asks before in-app navigation loses unsaved edits (any form of `useForm` with `guard`, a running
 * bulk action: `registerUnsavedGuard`). Reload and close get the browser's own question
 * (`useUnsavedGuard`); here: a link of the console (side navigation, "back" links) and the
 * browser's back/forward, which Next's router would otherwise follow without a word.
 */
export function LeaveGuard() {
  const { t } = useI18n();
  useEffect(() => {
    const question = t("unsaved.leave");
    const onClick = (event: MouseEvent) => {
      if (!hasUnsavedChanges()) return;
      const anchor = (event.target as Element | null)?.closest?.("a");
      if (!anchor) return;
      const click = {
        href: anchor.getAttribute("href"),
        target: anchor.getAttribute("target"),
        download: anchor.hasAttribute("download"),
        button: event.button,
        modifier: event.metaKey || event.ctrlKey || event.shiftKey || event.altKey,
        defaultPrevented: event.defaultPrevented,
      };
      if (!leavesPage(click, window.location)) return;
      if (window.confirm(question)) return;
      // Stay: neither the browser nor the console's links (AppLink: React's listener is below the document) move.
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    // Back: the URL has already changed when popstate fires. Staying means stopping Next's router
    // from following it (this capture listener runs before its own) and stepping forward again to
    // the entry we were on; the popstate that step fires in turn is let through silently.
    let restoring = false;
    const onPopState = (event: PopStateEvent) => {
      if (restoring) {
        restoring = false;
        event.stopImmediatePropagation();
        return;
      }
      if (!hasUnsavedChanges()) return;
      if (window.confirm(question)) return;
      event.stopImmediatePropagation();
      restoring = true;
      window.history.forward();
    };
    document.addEventListener("click", onClick, true);
    window.addEventListener("popstate", onPopState, true);
    return () => {
      document.removeEventListener("click", onClick, true);
      window.removeEventListener("popstate", onPopState, true);
    };
  }, [t]);
  return null;
}
