"use client";
import { useMutation, useQueryClient, type UseMutationOptions } from "@tanstack/react-query";
import type { InputOf, OutputOf } from "@/lib/platform/operations";
import type { BrowserOperationName } from "@/lib/platform/routes";
import type { ApiError } from "@/lib/http/api-error";
import { platformFetch } from "./browser-fetch";
import { invalidateAfter } from "./platform-queries";

/**
 * A mutation of the operation table: calls it through the proxy (CSRF header included) and, once
 * it succeeded, makes stale what the table's `invalidates` names before the caller's `onSuccess`.
 * A failure becomes an error toast unless `meta: { silent: true }` (forms show `fieldErrors`).
 */
export function usePlatformMutation<N extends BrowserOperationName, Context = unknown>(
  name: N,
  options: Omit<UseMutationOptions<OutputOf<N>, ApiError, InputOf<N>, Context>, "mutationFn"> = {},
) {
  const queryClient = useQueryClient();
  return useMutation<OutputOf<N>, ApiError, InputOf<N>, Context>({
    ...options,
    mutationFn: (input) => platformFetch(name, input),
    onSuccess: async (...args) => {
      await invalidateAfter(queryClient, name);
      await options.onSuccess?.(...args);
    },
  });
}
