"use client";
import { AppLink } from "@/components/ui/app-link";
import { useI18n } from "@/components/i18n/i18n-provider";
import { buttonClass } from "@/components/ui/button";
import { useConsoleHref } from "@/components/shell/console-href";

/** A 404 inside the console's frame, in the user's language (not Next's English default). */
export default function ConsoleNotFound() {
  const { t } = useI18n();
  const href = useConsoleHref();
  return (
    <div className="max-w-xl rounded-lg border border-slate-300 bg-white p-5">
      <h1 className="text-lg font-semibold text-slate-900">{t("notFound.title")}</h1>
      <p className="mt-2 text-sm text-slate-800">{t("notFound.body")}</p>
      <AppLink href={href("/customers")} className={`mt-4 inline-block ${buttonClass("primary")}`}>
        {t("notFound.home")}
      </AppLink>
    </div>
  );
}
