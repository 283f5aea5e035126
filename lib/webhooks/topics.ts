import type { InboxDelivery } from "@/lib/store/webhook-inbox";
import { processValue } from "@/lib/process-state";

/**
 * Webhook topics → the handlers features registered for them. The receiver knows no feature: it
 * stores a delivery and hands it here; each feature subscribes to the topics it cares about at
 * start-up (lib/composition.ts). A handler's failure is logged and never reaches the receiver's answer
 * nor the other handlers of the same delivery.
 */

/**
 * The topics the platform's sender is known to send (§6 lists none; the sandbox's sender documents
 * `<resource>.<action>`, sandbox/README.md "Outbound webhooks"). A tag rename arrives as `tag.updated`.
 */
export const WEBHOOK_TOPICS = [
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "customer.merged",
  "customerTag.added",
  "customerTag.removed",
  "tag.created",
  "tag.updated",
  "tag.deleted",
  "tag.merged",
  "tag.imported",
  "tagDimension.created",
  "list.created",
  "list.deleted",
  "listMember.added",
  "listMember.removed",
  "event.created",
  "order.created",
  "order.updated",
  "order.cancelled",
  "order.refunded",
  "order.deleted",
  "refund.created",
  "refund.deleted",
  "store.created",
  "store.updated",
  "store.deleted",
  // Not sent by any platform we know of (§6 names no topic); handled in case an uninstall notice ever arrives.
  "app.uninstalled",
] as const;

export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** A stored delivery as handlers get it: the body parsed once, losslessly (ids above 2^53 are bigint). */
export type WebhookEvent = {
  topic: string;
  delivery: InboxDelivery;
  /** The delivery's `data` object (empty when absent); never parsed again from `delivery.payload`. */
  data: Readonly<Record<string, unknown>>;
};

export type TopicHandler = (event: WebhookEvent) => Promise<void>;

type Log = { warn(obj: object, msg: string): void };

export type TopicRegistry = {
  /** `feature` names the subscriber in logs. */
  on(topics: readonly WebhookTopic[], feature: string, handler: TopicHandler): void;
  /** Runs every handler of the event's topic; resolves when all settled, never rejects. */
  dispatch(event: WebhookEvent, log?: Log): Promise<void>;
  /** Who handles what, one entry per registration (tests, docs). */
  subscribers(): Array<{ topic: WebhookTopic; feature: string }>;
};

/** The topic of a delivery: `<resource>.<action>` when both are known, else its `event` / `kind`. */
export function topicOf(delivery: Pick<InboxDelivery, "kind" | "resource" | "action">): string {
  return delivery.resource && delivery.action ? `${delivery.resource}.${delivery.action}` : delivery.kind;
}

export function createTopicRegistry(): TopicRegistry {
  const handlers = new Map<string, Array<{ feature: string; handler: TopicHandler }>>();
  return {
    on(topics, feature, handler) {
      for (const topic of topics) handlers.set(topic, [...(handlers.get(topic) ?? []), { feature, handler }]);
    },
    async dispatch(event, log) {
      const subscribers = handlers.get(event.topic) ?? [];
      await Promise.all(
        subscribers.map(({ feature, handler }) =>
          // A handler that throws synchronously is caught like one that rejects.
          Promise.resolve()
            .then(() => handler(event))
            .catch((cause: unknown) =>
              log?.warn({ feature, topic: event.topic, deliveryId: event.delivery.deliveryId, err: cause instanceof Error ? cause.message : String(cause) }, "webhook handler failed"),
            ),
        ),
      );
    },
    subscribers: () => [...handlers].flatMap(([topic, list]) => list.map(({ feature }) => ({ topic: topic as WebhookTopic, feature }))),
  };
}

/** The process's registry: features register at start-up, deliveries arrive in route handlers (lib/process-state.ts). */
export function webhookTopics(): TopicRegistry {
  return processValue("webhook-topics", createTopicRegistry);
}
