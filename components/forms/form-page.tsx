import { AppLink } from "@/components/ui/app-link";
import type { ReactNode } from "react";
import { focusRing } from "@/components/ui/button";

/** The top of a form page: the way back, the title, and what the page does. */
export function FormPageHeader({ back, backLabel, title, intro }: { back: string; backLabel: string; title: string; intro?: string }) {
  return (
    <>
      <AppLink href={back} className={`w-fit text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
        ← {backLabel}
      </AppLink>
      <h1 className="text-xl font-semibold break-all text-slate-900">{title}</h1>
      {intro && <p className="text-sm text-slate-700">{intro}</p>}
    </>
  );
}

/** A titled group of fields of a form page. */
export function FormSection({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">{title}</legend>
      {intro && <p className="mb-3 text-sm text-slate-700">{intro}</p>}
      {children}
    </fieldset>
  );
}
