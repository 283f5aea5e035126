import type { PlatformCall } from "@/lib/platform/installation-call";
import { PlatformError } from "@/lib/platform/errors";
import type { InputOf } from "@/lib/platform/operations";
import type { SendBatches, SendFailure } from "./import-run";

/**
 * How the import task sends: its batches straight to the platform's `batchPushEvents` (§4.3) with
 * the installation's caller, one after another, so the platform sees no more batches at once than
 * the scheduler has requests in flight. After a failure that may pass (429, 5xx, the network) the
 * rest are not sent: they go again with the failed one, sparing a platform in trouble.
 */
export function sendToPlatform(call: PlatformCall): SendBatches {
  return async (batches, signal) => {
    const outcomes: Awaited<ReturnType<SendBatches>> = [];
    let stopped = false;
    for (const batch of batches) {
      if (stopped || signal.aborted) {
        outcomes.push({ stored: false });
        continue;
      }
      try {
        // The caller checks the batch against the operation's schema (§4.3, §8) before sending it.
        await call("events.batchPush", { body: batch as InputOf<"events.batchPush">["body"] });
        outcomes.push({ stored: true });
      } catch (error) {
        outcomes.push({ stored: false, error });
        stopped = classifyPlatformError(error).transient;
      }
    }
    return outcomes;
  };
}

const PASSING = new Set<PlatformError["kind"]>(["rate_limited", "upstream", "network", "timeout"]);

/**
 * What the scheduler needs of a platform error: retry the network, 429 and 5xx (with their
 * `Retry-After`), fail the rows a refusal names by its field errors. Never a pause: a task has no
 * one to sign in again; a refused authorization fails the rows, and the report says why.
 */
export function classifyPlatformError(error: unknown): SendFailure {
  if (error instanceof PlatformError) {
    return { transient: PASSING.has(error.kind), retryAfterSeconds: error.retryAfterSeconds, fieldErrors: error.fieldErrors, message: error.message };
  }
  return { transient: true, fieldErrors: [], message: error instanceof Error ? error.message : String(error) };
}
