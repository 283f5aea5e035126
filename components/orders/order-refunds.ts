"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiError } from "@/lib/http/api-error";
import { appQuery, invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import type { InputOf } from "@/lib/platform/operations";
import type { RefundRecord, RefundsAnswer } from "@/lib/orders/refund-record";

/**
 * The refunds this console recorded (the app's store, the table's `refunds.*` routes): read for an
 * order page or a page of the orders list in one request, written by the refund and delete-refund
 * dialogs through the app's route, which calls the platform and records its answer. Their keys are
 * under the orders' resource (`deals`): whatever makes orders stale (a refund here, a webhook of a
 * refund made by someone else) refreshes the recorded refunds too.
 */
export function orderRefundsQuery(orderNos: readonly string[]) {
  const numbers = [...new Set(orderNos)].sort();
  return { ...appQuery("refunds.list", { query: { orderNo: numbers } }), enabled: numbers.length > 0, staleTime: 10_000 };
}

/** The records of one order, newest first. */
export function useOrderRefunds(orderNo: string) {
  return useQuery({ ...orderRefundsQuery([orderNo]), select: (answer: RefundsAnswer) => answer.refunds[orderNo] ?? [] });
}

/** §4.2 refund through the app: `requestKey` is one per dialog, so a double click is one refund. */
export function useRefundMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ refund: RefundRecord; repeated?: boolean }, ApiError, { requestKey: string; refund: InputOf<"deals.refund">["body"] }>({
    meta: { silent: true },
    mutationFn: (body) => appCall("refunds.create", { body }),
    onSuccess: () => invalidateAppAfter(queryClient, "refunds.create"),
  });
}

/** §4.2 deleteRefund through the app: the order's records are marked deleted. */
export function useDeleteRefundMutation() {
  const queryClient = useQueryClient();
  return useMutation<unknown, ApiError, { orderNo: string }>({
    meta: { silent: true },
    mutationFn: ({ orderNo }) => appCall("refunds.delete", { query: { orderNo } }),
    // A 404 also changes the records (the platform has none): refresh after either outcome.
    onSettled: () => invalidateAppAfter(queryClient, "refunds.delete"),
  });
}
