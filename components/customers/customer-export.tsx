"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef } from "react";
import { invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";

/**
 * "Export CSV" for the customers list's current filter (`list`: its URL state), or for one platform
 * list's members (`listId`, the same CSV): starts the export as a background task of the tenant (the
 * app route `customers.export`), which goes on when this page is closed; its progress, Stop and the
 * file's Download are in the tasks panel, the same for every staff member. One export runs at a time
 * per tenant: a second click answers the one running.
 */
export function CustomerExportButton({ list, listId, label }: { list: string; listId?: string; label?: string }) {
  const { t } = useI18n();
  const helpId = useId();
  const queryClient = useQueryClient();
  // Set at once on click: the disabled state arrives a render later, after a double click's second click.
  const starting = useRef(false);
  const start = useMutation({
    mutationFn: () => appCall("customers.export", { body: { list, ...(listId ? { listId } : {}) } }),
    meta: { silent: true },
    onSuccess: () => void invalidateAppAfter(queryClient, "customers.export"),
    onSettled: () => void (starting.current = false),
  });
  const onClick = () => {
    if (starting.current) return;
    starting.current = true;
    start.mutate();
  };
  return (
    <div className="flex flex-col items-end gap-1" data-testid="customer-export">
      <Button onClick={onClick} disabled={start.isPending} aria-describedby={helpId} title={t("customerExport.help")} data-testid="customer-export-start">
        {label ?? t("customerExport.button")}
      </Button>
      <p id={helpId} className="sr-only">
        {t("customerExport.help")}
      </p>
      <p className="max-w-md text-right text-sm text-slate-800" role={start.isError ? "alert" : "status"}>
        {start.isError
          ? t("customerExport.refused", { message: errorMessage(start.error, t) })
          : start.data
            ? start.data.started
              ? t("customerExport.started")
              : t("customerExport.alreadyRunning", { name: start.data.task.startedBy.name || start.data.task.startedBy.userId })
            : ""}
      </p>
    </div>
  );
}
