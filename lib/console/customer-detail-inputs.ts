import type { InputOf } from "@/lib/platform/operations";

/** The reads of the customer detail page; the server prefetches the same inputs (same keys). */
export function customerDetailInputs(id: string) {
  return {
    customer: { params: { id } },
    identities: { query: { customerIds: id } },
    statistics: { query: { customerId: id } },
  } satisfies { customer: InputOf<"customers.get">; identities: InputOf<"identities.list">; statistics: InputOf<"customers.statistics"> };
}
