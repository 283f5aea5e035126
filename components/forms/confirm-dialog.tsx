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

type ConfirmProps = { open: boolean; title: string; onClose: () => void; children?: ReactNode } & Omit<ActionsProps, "onCancel" | "focusCancel">;

/**
 * The confirmation of an action (an `alertdialog`): what will happen, Cancel (focused) and the
 * action. With `call` (the platform call it confirms): why the call failed, busy while it runs,
 * and closing forgets its failure.
 */
export function ConfirmDialog({ open, title, onClose, children, call, pending = call?.isPending, ...actions }: ConfirmProps & { call?: { error: unknown; isPending: boolean; reset: () => void } }) {
  const close = () => {
    call?.reset();
    onClose();
  };
  return (
    <Dialog open={open} role="alertdialog" title={title} onClose={close}>
      {children}
      <FormAlert error={call?.error} />
      <DialogActions variant="danger" {...actions} pending={pending} onCancel={close} focusCancel />
    </Dialog>
  );
}
