"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { appCall } from "@/lib/api/browser-fetch";
import type { CustomerColumn } from "@/lib/customers/customer-columns";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { preferencesKey, usePreferences } from "./use-preferences";

/** A burst of ticks in the column picker is saved once, when it settles (the last choice wins). */
const SAVE_AFTER_MS = 600;
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * The customers table's columns remembered per user in the app's store (docs/decisions/preferences-in-the-app-store.md; not
 * browser storage, which the admin's iframe partitions). Renders nothing; loaded lazily by the
 * customers page (its first-load JS budget). Once the preferences load: a link that names its
 * columns (`cols`) wins, else the remembered choice is applied; from then on, a changed choice is
 * saved when the picker settles.
 */
export default function RememberedColumns({ columns, apply }: { columns: CustomerColumn[]; apply: (columns: CustomerColumn[]) => void }) {
  const { t } = useI18n();
  const params = useSearchParams();
  const preferences = usePreferences();
  const queryClient = useQueryClient();
  /** The choice last applied or saved; undefined until the preferences load. */
  const known = useRef<readonly CustomerColumn[]>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (preferences.data === undefined) return;
    if (known.current === undefined) {
      const saved = preferences.data.customerColumns;
      const useSaved = saved !== null && !params.has("cols") && !same(saved, columns);
      known.current = useSaved ? saved : columns;
      if (useSaved) apply(saved);
      return;
    }
    if (same(known.current, columns)) return;
    known.current = columns;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      appCall("preferences.put", { body: { key: "customerColumns", value: columns } }).then(
        (answer) => queryClient.setQueryData(preferencesKey(), answer),
        () => toastStore.show("error", t("prefs.columns.saveError")),
      );
    }, SAVE_AFTER_MS);
  }, [preferences.data, params, columns, apply, queryClient, t]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return null;
}
