"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useActivityChanges, type ActivityChanges } from "./use-activity-changes";

/**
 * For the console shell (inside its QueryClientProvider): when a webhook says something changed,
 * invalidates the cached queries it makes stale (`["platform", <resource>]`, see
 * lib/webhooks/activity.ts, and the app's own of that resource, `["app", <resource>]`), so open
 * lists and detail pages refetch. Renders nothing.
 */
export function WebhookQueryInvalidator({ openAppId }: { openAppId: string | undefined }) {
  const queryClient = useQueryClient();
  const onChanges = useCallback(
    (changes: ActivityChanges) => {
      for (const [, ...resource] of changes.staleQueryKeys) {
        // The platform's queries of a resource and the app's own about it (appKeys: the shop register, recorded refunds).
        void queryClient.invalidateQueries({ queryKey: ["platform", ...resource] });
        void queryClient.invalidateQueries({ queryKey: ["app", ...resource] });
      }
    },
    [queryClient],
  );
  useActivityChanges(openAppId, onChanges);
  return null;
}
