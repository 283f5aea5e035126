import "server-only";
import type { Logger } from "pino";
import { logger as rootLogger } from "@/lib/log";
import type { Store } from "@/lib/store/database";
import { INBOX_RETENTION_DAYS, pruneWebhookInbox, recordDelivery } from "@/lib/store/webhook-inbox";
import { isWebhookTokenValid } from "@/lib/store/webhook-tokens";
import { authenticateDelivery, type WebhookAuthConfig } from "./authenticate";
import { parseDelivery } from "./payload";
import { MAX_WEBHOOK_BODY_BYTES, readRawBody } from "./raw-body";

export type ReceiverDeps = {
  config: WebhookAuthConfig;
  store: () => Promise<Store>;
  now?: () => number;
  log?: Logger;
  maxBodyBytes?: number;
};

const NO_STORE = { "Cache-Control": "no-store" };
const PRUNE_EVERY_MS = 3600 * 1000;
const lastPruned = new WeakMap<Store, number>();

/** At most once an hour per store, after answering: drops deliveries older than the retention. */
function pruneLater(store: Store, now: number, log: Logger): void {
  if (now - (lastPruned.get(store) ?? 0) < PRUNE_EVERY_MS) return;
  lastPruned.set(store, now);
  pruneWebhookInbox(store, now - INBOX_RETENTION_DAYS * 86_400_000).then(
    (deleted) => deleted > 0 && log.info({ deleted }, "webhook inbox pruned"),
    (cause: unknown) => log.warn({ err: cause instanceof Error ? cause.message : String(cause) }, "webhook inbox prune failed"),
  );
}

function error(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers: { ...NO_STORE, ...headers } });
}

/**
 * `POST /api/webhooks/platform` (§5.5, §6): raw body first (413 above the limit), then the configured
 * authentication (401, nothing stored), then the payload (400 when it is not a JSON object or a known
 * field is malformed), then the inbox (deduplicated). Answers `200 {received: true}` and, for a delivery
 * already in the inbox, `duplicate: true` — a 2xx, so the platform stops retrying. A store failure is a
 * 503 with Retry-After (the platform retries), never a 500.
 */
export async function receiveWebhook(request: Request, deps: ReceiverDeps): Promise<Response> {
  const log = deps.log ?? rootLogger().child({ scope: "webhooks" });
  const now = deps.now ?? Date.now;
  try {
    const url = new URL(request.url);
    const body = await readRawBody(request, deps.maxBodyBytes ?? MAX_WEBHOOK_BODY_BYTES);
    if (!body.ok) {
      log.warn({ status: body.status, reason: body.message }, "webhook refused");
      return error(body.status, body.status === 413 ? "payload_too_large" : "invalid_payload", body.message);
    }

    const config = deps.config;
    const auth = await authenticateDelivery({ headers: request.headers, url, rawBody: body.text }, config, async (token) =>
      config.mode === "oauth2" ? isWebhookTokenValid(await deps.store(), token, config.appId, now()) : false,
    );
    if (!auth.ok) {
      log.warn({ mode: config.mode, reason: auth.reason }, "webhook authentication failed");
      const challenge: Record<string, string> = config.mode === "basic" ? { "WWW-Authenticate": 'Basic realm="webhooks", charset="UTF-8"' } : {};
      return error(401, "unauthorized", "The delivery is not authenticated for this app.", challenge);
    }

    const parsed = parseDelivery(body.text, config.mode, url.searchParams.get("openAppId") ?? undefined);
    if (!parsed.ok) {
      log.warn({ reason: parsed.message }, "webhook payload refused");
      return error(400, "invalid_payload", parsed.message);
    }

    const { delivery } = parsed;
    const store = await deps.store();
    const stored = await recordDelivery(store, delivery, now());
    pruneLater(store, now(), log);
    log.info({ inboxId: stored.id, deliveryId: delivery.deliveryId, kind: delivery.kind, openAppId: delivery.openAppId, tenantId: delivery.tenantId, duplicate: stored.duplicate }, "webhook received");
    return Response.json(stored.duplicate ? { received: true, duplicate: true } : { received: true }, { headers: NO_STORE });
  } catch (cause) {
    log.error({ err: cause instanceof Error ? { name: cause.name, message: cause.message } : String(cause) }, "webhook could not be stored");
    return error(503, "unavailable", "The delivery could not be stored; retry later.", { "Retry-After": "5" });
  }
}
