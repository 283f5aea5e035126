"use client";
import { useSyncExternalStore } from "react";
import { toastStore, type Toast } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "./button";

const TONES: Record<Toast["tone"], string> = {
  success: "border-green-700 bg-green-50 text-green-900",
  error: "border-red-700 bg-red-50 text-red-900",
  info: "border-slate-500 bg-white text-slate-900",
};

const noToasts: readonly Toast[] = [];

/** The toasts of `toastStore`, announced politely (errors assertively). */
export function Toaster() {
  const { t } = useI18n();
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.get, () => noToasts);
  return (
    <section aria-label={t("toast.region")} className="pointer-events-none fixed right-3 bottom-3 z-50 flex w-[min(24rem,calc(100vw-1.5rem))] flex-col gap-2">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.tone === "error" ? "alert" : "status"}
          className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 px-3 py-2 text-sm shadow-md ${TONES[toast.tone]}`}
        >
          <p className="flex-1">{toast.message}</p>
          <button type="button" onClick={() => toastStore.dismiss(toast.id)} className={`rounded px-1 font-semibold ${focusRing}`} aria-label={t("toast.dismiss")}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
