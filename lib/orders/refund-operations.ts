import "server-only";
import { z } from "zod";
import { answer, defineOperations, int, repeated, requestKey } from "@/lib/http/define-operations";
import { MAX_REFUND_ORDERS, type RefundRecord, type RefundsAnswer } from "./refund-record";

/** The refund routes with their schemas (the list: lib/http/app-routes.ts). */

const orderNoText = z.string().trim().min(1, "must be 1 to 255 characters").max(255, "must be 1 to 255 characters");
const refundRecord = z.object({
  id: z.string(),
  orderNo: z.string(),
  status: z.enum(["sending", "recorded", "deleted"]),
  refundState: z.string(),
  refundTotal: z.string().optional(),
  reason: z.string().optional(),
  lineIds: z.array(z.string()),
  dateRefund: z.string().optional(),
  recordedBy: z.string().optional(),
  recordedAt: int,
  deletedBy: z.string().optional(),
  deletedAt: int.optional(),
});

export const refundOperations = defineOperations({
  "refunds.list": {
    summary: "The refunds this console recorded for 1 to 100 order numbers, newest first",
    query: z.strictObject({ orderNo: repeated(orderNoText).pipe(z.array(z.string()).min(1, "is required").max(MAX_REFUND_ORDERS, `at most ${MAX_REFUND_ORDERS} order numbers`)) }),
    output: answer<RefundsAnswer>(z.object({ refunds: z.record(z.string(), z.array(refundRecord)) })),
  },
  "refunds.create": {
    summary: "§4.2 dealService/refund with the installation's token, recorded with the platform's answer; the same requestKey twice is one refund (200, repeated)",
    statuses: [200, 201],
    body: z.strictObject({
      requestKey,
      refund: z.looseObject({ orderNo: orderNoText }).meta({ description: "the §4.2 refund body" }),
    }),
    output: answer<{ refund: RefundRecord; repeated?: boolean }>(z.object({ refund: refundRecord, repeated: z.boolean().optional() })),
  },
  "refunds.delete": {
    summary: "§4.2 dealService/deleteRefund; the order's recorded refunds are marked deleted",
    query: z.strictObject({ orderNo: orderNoText }),
    output: answer<{ refund: unknown; markedDeleted: number }>(z.object({ refund: z.unknown(), markedDeleted: int })),
  },
});
