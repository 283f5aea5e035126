import type { ReactNode } from "react";

/** A batch's progress bar, its status line (announced) and what the caller adds below (failures, results). */
export function ProgressPanel({ progress: { done, total }, label, status, testId, children }: { progress: { done: number; total: number }; label: string; status: string; testId: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3" data-testid={testId}>
      <progress className="h-2 w-full accent-blue-700" max={Math.max(1, total)} value={done} aria-label={label} />
      <p className="text-sm text-slate-900" role="status">{status}</p>
      {children}
    </div>
  );
}
