"use client";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import type { CustomerColumn } from "@/lib/customers/customer-columns";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { usePreferences, useSavePreference } from "./use-preferences";

/** A burst of ticks in the column picker is saved once, when it settles (the last choice wins). */
const SAVE_AFTER_MS = 600;
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * The customers table's columns remembered per user in the app's store (issue 17, point 9; not
 * browser storage, which the admin's iframe partitions). A link that names its columns (`cols`)
 * wins; without one, the remembered choice is applied once it loads. Returns the picker's onChange.
 */
export function useRememberedColumns(current: readonly CustomerColumn[], apply: (columns: CustomerColumn[]) => void): (columns: CustomerColumn[]) => void {
  const { t } = useI18n();
  const params = useSearchParams();
  const preferences = usePreferences();
  const save = useSavePreference();
  const applied = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const saved = preferences.data?.customerColumns;
  useEffect(() => {
    if (applied.current || preferences.data === undefined) return;
    applied.current = true;
    if (saved && !params.has("cols") && !same(saved, current)) apply(saved);
  }, [preferences.data, saved, params, current, apply]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (columns) => {
    applied.current = true;
    apply(columns);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => save.mutate({ key: "customerColumns", value: columns }, { onError: () => toastStore.show("error", t("prefs.columns.saveError")) }), SAVE_AFTER_MS);
  };
}
