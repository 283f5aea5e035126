"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";

/**
 * The refund answers of this session, per order. §4.2 has no read of refunds: the refund record
 * (and deleteRefund's answer) is only ever in the answer to the call, so the console keeps it here
 * to show on the order page. Never optimistic: written from the platform's answer only.
 */
export type RefundMemo = { refund: Record<string, unknown>; deleted: boolean };
export const refundMemoKey = (orderNo: string) => ["console", "orderRefund", orderNo] as const;

export function useRefundMemo(orderNo: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: refundMemoKey(orderNo),
    queryFn: () => queryClient.getQueryData<RefundMemo | null>(refundMemoKey(orderNo)) ?? null,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
