import { BULK_CONCURRENCY, runBounded, type RunProgress } from "@/lib/batch/bulk-run";

/**
 * Adding one tag to many customers, or removing it, from the tag's side: one §4.5 call per customer
 * (addCustomerTag / removeCustomerTag take one `customerId`), a few at a time, with a result per id.
 */

/** One request per customer: more than this at once is refused rather than left running for long. */
export const TAG_CUSTOMERS_MAX = 10_000;

export type TagCustomersKind = "add" | "remove";

export type TagCustomerResult =
  | { customerId: string; status: "tagged" | "removed" | "notCarried" }
  | { customerId: string; status: "failed"; error: unknown };


/** The answer of one call (the names the platform reports) as the result of that customer. */
export function resultOf(kind: TagCustomersKind, customerId: string, tagName: string, answer: readonly string[]): TagCustomerResult {
  if (kind === "add") return { customerId, status: "tagged" };
  // §4.5 removeCustomerTag answers the removed names: without ours, the customer did not carry it.
  return { customerId, status: answer.includes(tagName) ? "removed" : "notCarried" };
}

export async function tagCustomers(
  kind: TagCustomersKind,
  tagName: string,
  customerIds: readonly string[],
  send: (customerId: string) => Promise<readonly string[]>,
  options: { signal?: AbortSignal; concurrency?: number; onProgress?: (progress: RunProgress) => void } = {},
): Promise<TagCustomerResult[]> {
  const { results } = await runBounded(customerIds, send, {
    concurrency: options.concurrency ?? BULK_CONCURRENCY,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  return results.map((r) =>
    r.status === "done"
      ? resultOf(kind, r.item, tagName, r.value)
      : { customerId: r.item, status: "failed" as const, error: r.error },
  );
}
