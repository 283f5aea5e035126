import type { ReactNode } from "react";

/**
 * A console page's heading: the title, what stands beside it (actions, or the list's live total,
 * `LiveTotal`), and an introduction under it. Children of the page's vertical stack.
 */
export function PageHeader({ title, aside, intro }: { title: ReactNode; aside?: ReactNode; intro?: ReactNode }) {
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        {aside}
      </div>
      {intro ? <p className="text-sm text-slate-800">{intro}</p> : null}
    </>
  );
}

/** A list's total beside its title, announced when it changes. */
export function LiveTotal({ children }: { children: ReactNode }) {
  return (
    <p className="text-sm text-slate-800" aria-live="polite">
      {children}
    </p>
  );
}
