"use client";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert } from "./form-alert";

type ActionsProps = {
  cancel: string;
  onCancel: () => void;
  confirm: string;
  /** Without it, the action submits the dialog's form. */
  onConfirm?: () => void;
  pending?: boolean;
  /** Shown on the action while the call runs (else the action only turns disabled). */
  pendingLabel?: string;
  disabled?: boolean;
  variant?: "primary" | "danger";
  /** A confirmation gives Cancel the focus: the safe choice comes first. */
  focusCancel?: boolean;
};

/** The buttons of a dialog: Cancel, then the action (busy while its call runs). */
export function DialogActions({ cancel, onCancel, confirm, onConfirm, pending = false, pendingLabel, disabled = false, variant = "primary", focusCancel = false }: ActionsProps) {
  return (
    <div className="flex justify-end gap-2">
      <Button onClick={onCancel} autoFocus={focusCancel}>{cancel}</Button>
      <Button type={onConfirm ? "button" : "submit"} variant={variant} disabled={pending || disabled} aria-busy={pending || undefined} onClick={onConfirm}>
        {pending && pendingLabel ? pendingLabel : confirm}
      </Button>
    </div>
  );
}

/**
 * The confirmation of one platform call (an `alertdialog`): what will happen, why the call failed
 * if it did, Cancel (focused) and the action.
 */
export function ConfirmDialog({ open, title, onClose, error, children, ...actions }: { open: boolean; title: string; onClose: () => void; error?: unknown; children?: ReactNode } & Omit<ActionsProps, "onCancel" | "focusCancel" | "variant"> & { variant?: "primary" | "danger" }) {
  return (
    <Dialog open={open} role="alertdialog" title={title} onClose={onClose}>
      {children}
      <FormAlert error={error} />
      <DialogActions variant="danger" {...actions} onCancel={onClose} focusCancel />
    </Dialog>
  );
}
