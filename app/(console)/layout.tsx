import type { ReactNode } from "react";
import { Suspense } from "react";
import { Providers } from "@/components/providers";
import { ConsoleShell } from "@/components/shell/console-shell";
import { requestLocale } from "@/lib/i18n/server";

/** The console's frame for every staff page (DESIGN.md §5). */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const locale = await requestLocale();
  return (
    <Providers locale={locale}>
      <Suspense>
        <ConsoleShell>{children}</ConsoleShell>
      </Suspense>
    </Providers>
  );
}
