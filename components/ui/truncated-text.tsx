"use client";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { focusRing } from "./button";

/**
 * Text cut to its box with an ellipsis, its whole value on hover (`title`) and on focus: a cut text
 * becomes focusable (keyboard users reach what a mouse reveals) and shows itself whole, wrapped,
 * while focused. Uncut text is plain text, no tab stop.
 */
export function TruncatedText({ text, children, className = "" }: { text: string; children?: ReactNode; className?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Not while focused: the focused text shows itself whole (uncut), and losing its tab stop then
    // would throw the focus away.
    const measure = () => {
      if (el.ownerDocument.activeElement !== el) setCut(el.scrollWidth > el.clientWidth + 1);
    };
    measure();
    const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, [text]);
  return (
    <span
      ref={ref}
      title={text}
      tabIndex={cut ? 0 : undefined}
      data-truncated={cut || undefined}
      className={`block truncate focus:overflow-visible focus:whitespace-normal focus:break-all ${cut ? `rounded ${focusRing}` : ""} ${className}`}
    >
      {children ?? text}
    </span>
  );
}
