"use client";
import { clientOnly } from "@/components/ui/client-only";
import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";

// The form's code loads when it is opened: the detail page stays within its first-load budget.
const AddIdentityForm = clientOnly(() => import("./add-identity-form").then((m) => m.AddIdentityForm));

type Existing = ReadonlyArray<{ identityType?: unknown; identityValue?: unknown }>;

/** "Add an identity" (§4.1 POST /v1/customeridentities) as a disclosure under the identities. */
export function AddIdentity({ customerId, existing }: { customerId: string; existing: Existing }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-3 border-t border-slate-200 pt-3">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? "add-identity-form" : undefined}
        onClick={() => setOpen((o) => !o)}
        className={`text-sm font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}
      >
        <span aria-hidden="true">{open ? "− " : "+ "}</span>
        {t("identityAdd.title")}
      </button>
      {open && <AddIdentityForm customerId={customerId} existing={existing} />}
    </div>
  );
}
