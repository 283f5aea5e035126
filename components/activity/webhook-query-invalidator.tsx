"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useActivityChanges, type ActivityChanges } from "./use-activity-changes";

/**
 * For the console shell (inside its QueryClientProvider): when a webhook says something changed,
 * invalidates the cached platform queries it makes stale (`["platform", <resource>]`, see
 * lib/webhooks/activity.ts), so open lists and detail pages refetch. Renders nothing.
 */
export function WebhookQueryInvalidator({ openAppId }: { openAppId: string | undefined }) {
  const queryClient = useQueryClient();
  const onChanges = useCallback(
    (changes: ActivityChanges) => {
      for (const queryKey of changes.staleQueryKeys) void queryClient.invalidateQueries({ queryKey: [...queryKey] });
    },
    [queryClient],
  );
  useActivityChanges(openAppId, onChanges);
  return null;
}
