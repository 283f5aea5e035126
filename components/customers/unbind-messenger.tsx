"use client";
import { AppLink } from "@/components/ui/app-link";
import { useState } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { unbindingBody, type Identity } from "@/lib/customers/messenger-unbinding";
import { personText, usePerson } from "@/components/people/person-name";

/**
 * Unbind a customer's messaging-platform identity (§4.1 POST /v1/customers/messenger/unbinding):
 * confirmed first; the platform moves the union id and its open ids to a NEW customer, which the
 * report links to.
 */
export function UnbindMessenger({ identities }: { identities: Identity[] }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const [open, setOpen] = useState(false);
  const [newId, setNewId] = useState<string | null>(null);
  const unbind = usePlatformMutation("customers.unbindMessenger", {
    meta: { silent: true },
    onSuccess: (result) => {
      const id = String(result.customerId);
      setNewId(id);
      setOpen(false);
      toastStore.show("success", t("customerDetail.unbind.done", { name: id }));
    },
  });
  const newPerson = usePerson(newId);
  const body = unbindingBody(identities);
  if (!body && !newId) return null;
  return (
    <div className="mt-3">
      {newId ? (
        <p role="status" className="text-sm text-slate-900" data-testid="unbind-report">
          {t("customerDetail.unbind.done", { name: personText(newId, newPerson) })}{" "}
          <AppLink href={href(`/customers/${newId}`)} className={`text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.outcome.open")}
          </AppLink>
        </p>
      ) : (
        <Button onClick={() => setOpen(true)}>{t("customerDetail.unbind")}</Button>
      )}
      <ConfirmDialog open={open} title={t("customerDetail.unbind.title")} onClose={() => setOpen(false)} call={unbind}
        cancel={t("customerEdit.cancel")} confirm={t("customerDetail.unbind.confirm")} disabled={!body} onConfirm={() => body && unbind.mutate({ body })}>
        <p className="text-sm">{t("customerDetail.unbind.body", { value: body ? ("unionid" in body ? body.unionid : body.openid) : "" })}</p>
      </ConfirmDialog>
    </div>
  );
}
