"use client";
import { useSyncExternalStore } from "react";
import { reauthPrompt } from "@/lib/api/reauth";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/**
 * The re-authorize prompt (§5.2.9): shown when following the redirect at once would lose unsaved
 * work, or when authorization did not stick (the installation may be `reauth_required`).
 */
export function ReauthPrompt() {
  const { t } = useI18n();
  const prompt = useSyncExternalStore(reauthPrompt.subscribe, reauthPrompt.get, () => null);
  return (
    <Dialog open={prompt !== null} title={t("reauth.title")} onClose={() => reauthPrompt.set(null)} role="alertdialog">
      <p className="text-sm text-slate-800">{prompt?.reason === "unsaved" ? t("reauth.unsaved") : t("reauth.loop")}</p>
      <div className="flex justify-end gap-2">
        <Button onClick={() => reauthPrompt.set(null)}>{t("reauth.dismiss")}</Button>
        <Button variant="primary" onClick={() => prompt && window.location.assign(prompt.redirect)}>
          {t("reauth.action")}
        </Button>
      </div>
    </Dialog>
  );
}
