"use client";
import type { ReauthPrompt } from "@/lib/api/reauth";
import { reauthPrompt } from "@/lib/api/reauth";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/** The re-authorize dialog of `ReauthPrompt` (reauth-prompt.tsx), loaded the first time one is needed. */
export default function ReauthDialog({ prompt }: { prompt: ReauthPrompt | null }) {
  const { t } = useI18n();
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
