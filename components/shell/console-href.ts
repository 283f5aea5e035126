"use client";
import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

/** Parameters every console URL carries: the environment (§5.4.4) and the platform's language. */
const CARRIED = ["openAppId", "lang"] as const;

/** Builds console links that keep `openAppId` (and `lang`) from the current URL. */
export function useConsoleHref(): (path: string, extra?: Record<string, string>) => string {
  const searchParams = useSearchParams();
  return useCallback(
    (path: string, extra?: Record<string, string>) => {
      const params = new URLSearchParams();
      for (const key of CARRIED) {
        const value = searchParams.get(key);
        if (value) params.set(key, value);
      }
      for (const [key, value] of Object.entries(extra ?? {})) params.set(key, value);
      const query = params.toString();
      return query ? `${path}?${query}` : path;
    },
    [searchParams],
  );
}
