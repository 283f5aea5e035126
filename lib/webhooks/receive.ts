import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { readBodyText } from "@/lib/http/body";
import { apiRoute, jsonResponse, type RouteLogger } from "@/lib/http/route";
import type { Store } from "@/lib/store/database";
import { INBOX_RETENTION_DAYS, pruneWebhookInbox, recordDelivery } from "@/lib/store/webhook-inbox";
import { isWebhookTokenValid } from "@/lib/store/webhook-tokens";
import { verifiedAddressOpenAppId } from "./address";
import { authenticateDelivery, type WebhookAuthConfig } from "./authenticate";
import { parseDelivery } from "./payload";
import { topicOf, type TopicRegistry } from "./topics";
import { webhooksOperations } from "./webhooks-operations";

export type ReceiverDeps = {
  config: WebhookAuthConfig;
  store: () => Promise<Store>;
  now?: () => number;
  log?: RouteLogger;
  maxBodyBytes?: number;
  /**
   * The features' handlers per topic (lib/webhooks/topics.ts), run after a new delivery is stored
   * (not a duplicate), e.g. the customer index applies it. Never delays or fails the answer.
   */
  topics?: Pick<TopicRegistry, "dispatch">;
  /** The key of per-installation webhook addresses (address.ts); without it `?openAppId=` is never used. */
  addressKey?: string;
};

const PRUNE_EVERY_MS = 3600 * 1000;
const lastPruned = new WeakMap<Store, number>();

/** At most once an hour per store, after answering: drops deliveries older than the retention. */
function pruneLater(store: Store, now: number, log: RouteLogger): void {
  if (now - (lastPruned.get(store) ?? 0) < PRUNE_EVERY_MS) return;
  lastPruned.set(store, now);
  pruneWebhookInbox(store, now - INBOX_RETENTION_DAYS * 86_400_000).then(
    (deleted) => deleted > 0 && log.info({ deleted }, "webhook inbox pruned"),
    (cause: unknown) => log.warn({ err: cause instanceof Error ? cause.message : String(cause) }, "webhook inbox prune failed"),
  );
}

/**
 * `POST /api/webhooks/platform` (§5.5, §6): raw body first (413 above the limit), then the configured
 * authentication (401, nothing stored), then the payload (400 when it is not a JSON object or a known
 * field is malformed), then the inbox (deduplicated). Answers `200 {received: true}` and, for a delivery
 * already in the inbox, `duplicate: true` — a 2xx, so the platform stops retrying. A store failure is a
 * 503 with Retry-After (the platform retries), never a 500.
 */
export const receiveWebhook = apiRoute<ReceiverDeps, (typeof webhooksOperations)["webhooks.receive"]>(
  { name: "webhook", scope: "webhooks", operation: webhooksOperations["webhooks.receive"], unavailable: "The delivery could not be stored; retry later." },
  async ({ request, url, deps, log, requestId }) => {
    const now = deps.now ?? Date.now;
    // The exact text that was sent (a byte order mark included): the signature covers it.
    const body = await readBodyText(request, { limit: deps.maxBodyBytes, keepBom: true, invalidCode: "invalid_payload" });
    const config = deps.config;
    const auth = await authenticateDelivery({ headers: request.headers, url, rawBody: body }, config, async (token) =>
      config.mode === "oauth2" ? isWebhookTokenValid(await deps.store(), token, config.appId, now()) : false,
    );
    if (!auth.ok) {
      log.warn({ mode: config.mode, reason: auth.reason }, "webhook authentication failed");
      const headers = config.mode === "basic" ? { "WWW-Authenticate": 'Basic realm="webhooks", charset="UTF-8"' } : undefined;
      throw new ApiError({ status: 401, code: "unauthorized", message: "The delivery is not authenticated for this app.", headers });
    }

    // The tenant comes from the authenticated body, or from an address this app made (MAC checked in
    // constant time); an unsigned `?openAppId=` never re-targets a delivery.
    const parsed = parseDelivery(body, config.mode, verifiedAddressOpenAppId(url, deps.addressKey));
    if (!parsed.ok) {
      log.warn({ reason: parsed.message }, "webhook payload refused");
      throw new ApiError({ status: 400, code: "invalid_payload", message: parsed.message });
    }

    const { delivery, data } = parsed;
    const store = await deps.store();
    const stored = await recordDelivery(store, delivery, now());
    pruneLater(store, now(), log);
    if (!stored.duplicate && deps.topics) void deps.topics.dispatch({ topic: topicOf(delivery), delivery, data }, log);
    log.info({ inboxId: stored.id, deliveryId: delivery.deliveryId, kind: delivery.kind, openAppId: delivery.openAppId, tenantId: delivery.tenantId, duplicate: stored.duplicate }, "webhook received");
    return jsonResponse(200, JSON.stringify(stored.duplicate ? { received: true, duplicate: true } : { received: true }), requestId);
  },
);
