"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { indexStatusQuery } from "@/lib/search/search-queries";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { IndexStatusLine } from "./index-status";

/** Settings' section on the customer index: what it holds, its progress or freshness, a re-sync. */
export function IndexSettings() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const status = useQuery(indexStatusQuery());
  const [confirming, setConfirming] = useState(false);
  const resync = useMutation({
    mutationFn: () => appCall("search.resync", {}),
    meta: { silent: true },
    onSuccess: (answer) => {
      queryClient.setQueryData(indexStatusQuery().queryKey, answer);
      void invalidateAppAfter(queryClient, "search.resync");
      toastStore.show("success", t("search.resyncStarted"));
      setConfirming(false);
    },
  });
  return (
    <div className="mt-1 flex flex-col gap-3">
      <p className="text-sm text-slate-800">{t("search.settingsBody")}</p>
      {status.isError ? <p className="text-sm text-red-800">{errorMessage(status.error, t)}</p> : <IndexStatusLine status={status.data} />}
      {status.data && <p className="text-sm text-slate-800 tabular-nums">{t("search.indexedCount", { count: status.data.indexed })}</p>}
      <div>
        <Button onClick={() => setConfirming(true)} data-testid="index-resync">{t("search.resync")}</Button>
      </div>
      <ConfirmDialog open={confirming} title={t("search.resync")} onClose={() => setConfirming(false)} call={resync} cancel={t("search.cancel")}
        confirm={t("search.resync")} pendingLabel={t("search.resyncing")} onConfirm={() => resync.mutate()}>
        <p className="text-sm text-slate-800">{t("search.resyncConfirm")}</p>
      </ConfirmDialog>
    </div>
  );
}
