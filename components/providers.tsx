"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ApiError } from "@/lib/api/api-error";
import { getBrowserQueryClient } from "@/lib/api/query-client";
import type { Locale } from "@/lib/i18n/locales";
import { translate } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { errorMessage } from "@/components/ui/error-message";
import { I18nProvider } from "./i18n/i18n-provider";

/**
 * The console's client-side context: the browser's single QueryClient (mutation failures become
 * error toasts unless a mutation sets `meta.silent`), and the language.
 */
export function Providers({ locale, children }: { locale: Locale; children: ReactNode }) {
  const queryClient = getBrowserQueryClient((error) => {
    const current = (document.documentElement.lang === "zh-CN" ? "zh-CN" : "en") as Locale;
    toastStore.show("error", error instanceof ApiError ? errorMessage(error, (k, v) => translate(current, k, v)) : translate(current, "error.body"));
  });
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider initialLocale={locale}>{children}</I18nProvider>
    </QueryClientProvider>
  );
}
