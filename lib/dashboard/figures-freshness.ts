import "server-only";
import { getStore } from "@/lib/store";
import type { InstallationKey } from "@/lib/store/installations";
import type { WebhookTopic } from "@/lib/webhooks/topics";
import { forgetInstallationFigures } from "./dashboard-cache";
import { forgetFigures, markFiguresStale } from "./figures-store";

/**
 * What keeps the stored figures fresh (subscribed in lib/composition.ts): a webhook of a change the
 * overview counts marks the tenant's figures stale, and the schedule computes them again after a
 * short delay (figures-store.ts `dueFigures`), so a burst of changes costs one computation.
 */

/** Changes that move a figure: customers (total, new per day, stage, source, gender), events, orders. */
export const FIGURES_TOPICS: readonly WebhookTopic[] = [
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "customer.merged",
  "event.created",
  "order.created",
  "order.updated",
  "order.cancelled",
  "order.refunded",
  "order.deleted",
];

export async function figuresChanged(key: InstallationKey, at = Date.now()): Promise<void> {
  await markFiguresStale(await getStore(), key, at);
}

/** A (re)installed or disconnected tenant: never served the figures of before. */
export async function figuresForgotten(key: InstallationKey): Promise<void> {
  forgetInstallationFigures(key);
  await forgetFigures(await getStore(), key);
}
