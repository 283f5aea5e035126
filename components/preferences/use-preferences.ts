"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { appGet, appRequest, pageOpenAppId } from "@/lib/api/browser-fetch";
import type { ApiError } from "@/lib/http/api-error";
import type { PreferenceKey, Preferences } from "@/lib/preferences/preference-rules";

/**
 * The console's preferences (`/api/preferences`, the app's store): attribute labels of the tenant
 * and the user's customer columns. One query for the page; a save answers the whole set, which
 * replaces the cached one (no second read).
 */
// Per environment (as the session's query): one tab may hold consoles of two installations.
export const preferencesKey = (openAppId: string | undefined = pageOpenAppId()) => ["console.preferences", openAppId ?? ""] as const;

export function usePreferences() {
  return useQuery({
    queryKey: preferencesKey(),
    queryFn: ({ signal }) => appGet<Preferences>("/api/preferences", { signal }),
    staleTime: 60_000,
  });
}

export function useSavePreference() {
  const queryClient = useQueryClient();
  return useMutation<Preferences, ApiError, { key: PreferenceKey; value: unknown }>({
    mutationFn: (body) => appRequest<Preferences>("PUT", "/api/preferences", body),
    onSuccess: (answer) => queryClient.setQueryData(preferencesKey(), answer),
  });
}
