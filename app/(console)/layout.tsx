import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { ConsoleShell } from "@/components/shell/console-shell";
import { messages } from "@/lib/i18n/messages";
import { requestLocale } from "@/lib/i18n/server";

/**
 * The console's frame for every staff page (ARCHITECTURE.md §5). No Suspense boundary here: a page's
 * redirect to authorization must be an HTTP redirect, sent before anything streams (see
 * lib/shell/server-page.ts). Pages are dynamic, so `useSearchParams` in the shell needs none.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const locale = await requestLocale();
  return (
    <Providers locale={locale} messages={messages[locale]}>
      <ConsoleShell>{children}</ConsoleShell>
    </Providers>
  );
}
