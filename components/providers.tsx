"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { ApiError } from "@/lib/http/api-error";
import { getBrowserQueryClient } from "@/lib/api/query-client";
import type { Translate } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { errorMessage } from "@/components/ui/error-message";
import { I18nProvider, useI18n } from "./i18n/i18n-provider";

/**
 * The console's client-side context: the language (`messages` = the dictionary of `locale` only),
 * the browser's single QueryClient (mutation failures become error toasts in the current
 * language unless a mutation sets `meta.silent`). State in the URL needs no provider (`useUrlState`).
 */
export function Providers({ locale, messages, children }: { locale: Locale; messages: Messages; children: ReactNode }) {
  return (
    <I18nProvider initialLocale={locale} initialMessages={messages}>
      <QueryProvider>{children}</QueryProvider>
    </I18nProvider>
  );
}

// The client lives for the page; its error handler reads the language of the moment.
let translateNow: Translate = (key) => key;

function QueryProvider({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  useEffect(() => {
    translateNow = t;
  }, [t]);
  const queryClient = getBrowserQueryClient((error) => {
    toastStore.show("error", error instanceof ApiError ? errorMessage(error, translateNow) : translateNow("error.body"));
  });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
