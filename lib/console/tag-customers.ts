import { ApiError } from "@/lib/api/api-error";
import { runBounded } from "./run-bounded";

/**
 * Adding one tag to many customers, or removing it, from the tag's side: one §4.5 call per customer
 * (addCustomerTag / removeCustomerTag take one `customerId`), a few at a time, with a result per id.
 */

/** Calls in flight at once: enough to be quick, few enough to stay clear of rate limits. */
export const TAG_CUSTOMERS_CONCURRENCY = 4;
/** One request per customer: more than this at once is refused rather than left running for long. */
export const TAG_CUSTOMERS_MAX = 10_000;

export type TagCustomersKind = "add" | "remove";

export type TagCustomerResult =
  | { customerId: string; status: "tagged" | "removed" | "notCarried" }
  | { customerId: string; status: "failed"; error: unknown; reason: string };

export type TagCustomersProgress = { done: number; total: number; ok: number; failed: number };

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
  options: { signal?: AbortSignal; concurrency?: number; onProgress?: (progress: TagCustomersProgress) => void } = {},
): Promise<TagCustomerResult[]> {
  const progress: TagCustomersProgress = { done: 0, total: customerIds.length, ok: 0, failed: 0 };
  const outcomes = await runBounded(customerIds, options.concurrency ?? TAG_CUSTOMERS_CONCURRENCY, send, {
    signal: options.signal,
    onSettled: (outcome) => {
      progress.done += 1;
      if (outcome.ok) progress.ok += 1;
      else progress.failed += 1;
      options.onProgress?.({ ...progress });
    },
  });
  return outcomes.map((o) =>
    o.ok
      ? resultOf(kind, o.item, tagName, o.value)
      : { customerId: o.item, status: "failed" as const, error: o.error, reason: o.error instanceof ApiError || o.error instanceof Error ? o.error.message : String(o.error) },
  );
}
