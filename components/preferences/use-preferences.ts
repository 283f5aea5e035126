"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { appQuery } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import type { ApiError } from "@/lib/http/api-error";
import type { PreferenceKey, Preferences } from "@/lib/preferences/preference-rules";

/**
 * The console's preferences (the app routes `preferences.get` / `preferences.put`, kept in the app's store): attribute labels of the tenant
 * and the user's customer columns. One query for the page; a save answers the whole set, which
 * replaces the cached one (no second read).
 */
/** Per environment (the table's keys carry it): one tab may hold consoles of two installations. */
export const preferencesKey = () => appQuery("preferences.get", {}).queryKey;

export function usePreferences() {
  return useQuery({ ...appQuery("preferences.get", {}), staleTime: 60_000 });
}

export function useSavePreference() {
  const queryClient = useQueryClient();
  return useMutation<Preferences, ApiError, { key: PreferenceKey; value: unknown }>({
    mutationFn: (body) => appCall("preferences.put", { body }),
    onSuccess: (answer) => queryClient.setQueryData(preferencesKey(), answer),
  });
}
