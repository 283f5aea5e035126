"use client";
import { AppLink } from "@/components/ui/app-link";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { buttonClass } from "@/components/ui/button";
import { useConsoleHref } from "./console-href";

/** An honest placeholder for a section not built yet. */
export function ComingSoon({ section }: { section: MessageKey }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  return (
    <section className="max-w-xl">
      <h1 className="text-xl font-semibold text-slate-900">{t("coming.title", { section: t(section) })}</h1>
      <p className="mt-2 text-sm text-slate-800">{t("coming.body")}</p>
      <AppLink href={href("/customers")} className={buttonClass("primary", "mt-4")}>
        {t("coming.goCustomers")}
      </AppLink>
    </section>
  );
}
