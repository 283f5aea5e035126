import "server-only";
import type { LifecycleRegistry } from "@/lib/auth/lifecycle";
import { WEBHOOK_TOPICS, type TopicRegistry, type WebhookTopic } from "@/lib/webhooks/topics";
import type { SearchService } from "./service";

/**
 * What the customer index subscribes to. Customers and their tags (a tag renamed arrives as
 * `tag.updated`; a merge as `tag.merged` then `tag.deleted`). List topics are not among them: the
 * index keeps no list membership, and the console's lists refresh from the inbox (lib/webhooks/activity.ts).
 */
export const CUSTOMER_INDEX_TOPICS: readonly WebhookTopic[] = WEBHOOK_TOPICS.filter((topic) => /^(customer|customerTag)\.|^tag\.(updated|merged|deleted)$/.test(topic));

/** Subscribes the customer index (created lazily: `service` is called per event) at start-up. */
export function subscribeCustomerIndex(registries: { topics: TopicRegistry; lifecycle: LifecycleRegistry }, service: () => SearchService): void {
  registries.topics.on(CUSTOMER_INDEX_TOPICS, "customer-index", (event) => service().applyWebhook(event));
  registries.lifecycle.on("installed", "customer-index", ({ key }) => service().reinstalled(key));
  registries.lifecycle.on("disconnected", "customer-index", ({ key }) => service().disconnected(key));
}
