"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import type { CustomerColumn } from "@/lib/customers/customer-columns";
import { appRequest } from "@/lib/api/browser-fetch";
import type { Preferences } from "@/lib/preferences/preference-rules";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { preferencesKey, usePreferences } from "./use-preferences";

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
  const queryClient = useQueryClient();
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
    // A plain request, not a mutation hook: the customers page stays within its first-load JS budget.
    timer.current = setTimeout(() => {
      appRequest<Preferences>("PUT", "/api/preferences", { key: "customerColumns", value: columns }).then(
        (answer) => queryClient.setQueryData(preferencesKey(), answer),
        () => toastStore.show("error", t("prefs.columns.saveError")),
      );
    }, SAVE_AFTER_MS);
  };
}
