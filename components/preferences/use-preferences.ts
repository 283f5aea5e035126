"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { appGet, appRequest } from "@/lib/api/browser-fetch";
import type { ApiError } from "@/lib/api/api-error";
import type { PreferenceKey, Preferences } from "@/lib/preferences/preference-rules";

/**
 * The console's preferences (`/api/preferences`, the app's store): attribute labels of the tenant
 * and the user's customer columns. One query for the page; a save answers the whole set, which
 * replaces the cached one (no second read).
 */
export const PREFERENCES_KEY = ["console.preferences"] as const;

export function usePreferences() {
  return useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: ({ signal }) => appGet<Preferences>("/api/preferences", { signal }),
    staleTime: 60_000,
  });
}

export function useSavePreference() {
  const queryClient = useQueryClient();
  return useMutation<Preferences, ApiError, { key: PreferenceKey; value: unknown }>({
    mutationFn: (body) => appRequest<Preferences>("PUT", "/api/preferences", body),
    onSuccess: (answer) => queryClient.setQueryData(PREFERENCES_KEY, answer),
  });
}
