"use client";
import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal dialog on the native <dialog> (focus is trapped and restored by the browser; Escape
 * closes it and calls `onClose`).
 */
export function Dialog({ open, title, onClose, children, role = "dialog" }: { open: boolean; title: string; onClose: () => void; children: ReactNode; role?: "dialog" | "alertdialog" }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open && (
        <div className="flex flex-col gap-4 p-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>
  );
}
