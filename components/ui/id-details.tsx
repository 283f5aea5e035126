"use client";
import Link from "next/link";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";

/** A folded list of customer ids (what a batch did), each a link to the customer with `linked`. */
export function IdDetails({ summary, ids, linked = false, testId }: { summary: string; ids: readonly string[]; linked?: boolean; testId: string }) {
  const href = useConsoleHref();
  return (
    <details>
      <summary className={`cursor-pointer rounded text-sm text-slate-900 ${focusRing}`}>{summary}</summary>
      <ul className="mt-1 flex max-h-32 flex-wrap gap-x-3 overflow-y-auto font-mono text-xs text-slate-900" data-testid={testId}>
        {ids.map((id) => (
          <li key={id}>{linked ? <Link href={href(`/customers/${id}`)} className={`rounded text-blue-800 underline ${focusRing}`}>{id}</Link> : id}</li>
        ))}
      </ul>
    </details>
  );
}
