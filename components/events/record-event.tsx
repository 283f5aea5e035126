"use client";
import { clientOnly } from "@/components/ui/client-only";
import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

const loadDialog = () => import("./record-event-dialog").then((m) => m.RecordEventDialog);
// The form (and its rules) loads when asked for, or as soon as the pointer or focus reaches the button.
const RecordEventDialog = clientOnly(loadDialog);

/**
 * "Record an event": the button, the last outcome, and the dialog on demand. On a customer's events
 * section for that customer; on the Events page (no `customerId`) the customer is chosen in the dialog.
 */
export function RecordEvent({ customerId }: { customerId?: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <div className="mt-2">
      <Button variant="primary" onClick={() => setOpen(true)} onPointerEnter={() => void loadDialog()} onFocus={() => void loadDialog()} data-testid="record-event-open">
        {t("recordEvent.open")}
      </Button>
      {outcome && (
        <p className="mt-2 text-sm text-slate-800" role="status" data-testid="record-event-outcome">
          {outcome}
        </p>
      )}
      {open && <RecordEventDialog customerId={customerId} onClose={() => setOpen(false)} onOutcome={setOutcome} />}
    </div>
  );
}
