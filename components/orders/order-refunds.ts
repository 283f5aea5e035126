"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiError } from "@/lib/http/api-error";
import { appGet, appPost, appRequest } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import { platformKeys } from "@/lib/api/query-keys";
import type { InputOf } from "@/lib/platform/operations";
import type { RefundRecord, RefundsAnswer } from "@/lib/orders/refund-record";

/**
 * The refunds this console recorded (the app's store, `/api/orders/refunds`): read for an order
 * page or a page of the orders list in one request, written by the refund and delete-refund
 * dialogs through the app's route, which calls the platform and records its answer.
 */
// Under the orders' resource key (`["platform", "deals"]`): whatever makes orders stale (a refund
// here, a webhook of a refund made by someone else) refreshes the recorded refunds too.
const REFUNDS_KEY = [...platformKeys.resource("deals"), "console.refunds"] as const;

export function orderRefundsQuery(orderNos: readonly string[]) {
  const numbers = [...new Set(orderNos)].sort();
  return {
    queryKey: [...REFUNDS_KEY, ...numbers] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      appGet<RefundsAnswer>(`/api/orders/refunds?${numbers.map((n) => `orderNo=${encodeURIComponent(n)}`).join("&")}`, { signal }),
    enabled: numbers.length > 0,
    staleTime: 10_000,
  };
}

/** The records of one order, newest first. */
export function useOrderRefunds(orderNo: string) {
  return useQuery({ ...orderRefundsQuery([orderNo]), select: (answer: RefundsAnswer) => answer.refunds[orderNo] ?? [] });
}

// The orders (and with them the recorded refunds) are stale after either.
const refreshAfter = (queryClient: ReturnType<typeof useQueryClient>, name: "deals.refund" | "deals.deleteRefund") => invalidateAfter(queryClient, name);

/** §4.2 refund through the app: `requestKey` is one per dialog, so a double click is one refund. */
export function useRefundMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ refund: RefundRecord; repeated?: boolean }, ApiError, { requestKey: string; refund: InputOf<"deals.refund">["body"] }>({
    meta: { silent: true },
    mutationFn: (input) => appPost("/api/orders/refunds", input),
    onSuccess: () => refreshAfter(queryClient, "deals.refund"),
  });
}

/** §4.2 deleteRefund through the app: the order's records are marked deleted. */
export function useDeleteRefundMutation() {
  const queryClient = useQueryClient();
  return useMutation<unknown, ApiError, { orderNo: string }>({
    meta: { silent: true },
    mutationFn: ({ orderNo }) => appRequest("DELETE", `/api/orders/refunds?orderNo=${encodeURIComponent(orderNo)}`),
    // A 404 also changes the records (the platform has none): refresh after either outcome.
    onSettled: () => refreshAfter(queryClient, "deals.deleteRefund"),
  });
}
