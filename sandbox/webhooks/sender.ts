import { randomBytes } from "node:crypto";
import { backoffMs } from "@/lib/platform/backoff";
import { stringifyJson } from "@/lib/platform/json";
import { installedTenants } from "../auth/installations";
import { formatUtc } from "../clock";
import { environmentByName, type ChangeEvent, type SandboxContext } from "../context";
import { defaultWebhookConfig, type WebhookConfig } from "./config";
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from "@/lib/platform/webhook-signature";

/** The message body (the spec does not show one, §6; sandbox/README.md documents this shape). */
export type WebhookPayload = {
  deliveryId: string;
  event: string;
  occurredAt: string;
  appId: string;
  environment: string;
  openAppId: string;
  tenantId: number;
  resource: ChangeEvent["resource"];
  action: ChangeEvent["action"];
  resourceId: string;
  data: Record<string, unknown>;
};

export type DeliveryAttempt = { number: number; startedAt: string; durationMs: number; httpStatus?: number; error?: string };

export type Delivery = {
  id: string;
  event: string;
  environment: string;
  tenantId: number;
  url: string;
  mode: WebhookConfig["mode"];
  status: "pending" | "retrying" | "delivered" | "failed";
  createdAt: string;
  nextAttemptAt?: string;
  completedAt?: string;
  attempts: DeliveryAttempt[];
  payload: WebhookPayload;
};

const LOG_LIMIT = 1000;

/**
 * The outbound webhook sender (§5.5, §6). It listens to `publishChange`, and for every tenant that
 * has the app installed queues one delivery per change; deliveries run off the request path, are
 * retried with exponential backoff (baseDelayMs · 2^(n-1)) up to maxAttempts on any non-2xx
 * answer, network error or timeout, and are kept in an in-memory log (newest last).
 */
export class WebhookSender {
  config: WebhookConfig;
  readonly deliveries: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private oauthToken: { key: string; token: string; expiresAtMs: number } | undefined;
  private oauthPending: { key: string; promise: Promise<string> } | undefined;
  private generation = 0;
  /** Deliveries queued since start (the log itself is trimmed to its newest entries). */
  queuedCount = 0;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly initial: WebhookConfig = defaultWebhookConfig(),
  ) {
    this.config = { ...initial };
  }

  /** Forgets queued retries, the log and a cached OAuth token; restores the start configuration. */
  reset(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.deliveries.length = 0;
    this.oauthToken = undefined;
    this.oauthPending = undefined;
    this.config = { ...this.initial };
    this.generation++;
  }

  /** Called synchronously by `publishChange`: only queues, never waits for the network. */
  onChange(change: ChangeEvent): void {
    if (!this.config.enabled) return;
    const appId = this.ctx.config.app.appId;
    const installed = installedTenants(this.ctx, appId).some((t) => t.environment === change.environment && t.tenantId === Number(change.tenantId));
    if (!installed) return;
    const env = environmentByName(this.ctx, change.environment);
    const id = `whd_${randomBytes(12).toString("hex")}`;
    const payload: WebhookPayload = {
      deliveryId: id,
      event: `${change.resource}.${change.action}`,
      occurredAt: formatUtc(this.ctx.clock.now()),
      appId,
      environment: change.environment,
      openAppId: env?.openAppId ?? "",
      tenantId: Number(change.tenantId),
      resource: change.resource,
      action: change.action,
      resourceId: String(change.id),
      data: change.data ?? {},
    };
    const delivery: Delivery = {
      id,
      event: payload.event,
      environment: change.environment,
      tenantId: payload.tenantId,
      url: this.config.url,
      mode: this.config.mode,
      status: "pending",
      createdAt: new Date().toISOString(),
      attempts: [],
      payload,
    };
    this.deliveries.push(delivery);
    this.queuedCount++;
    if (this.deliveries.length > LOG_LIMIT) this.deliveries.splice(0, this.deliveries.length - LOG_LIMIT);
    this.schedule(delivery, 0);
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    const generation = this.generation;
    if (delayMs > 0) delivery.nextAttemptAt = new Date(Date.now() + delayMs).toISOString();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (generation !== this.generation) return;
      void this.attempt(delivery, generation);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(delivery: Delivery, generation: number): Promise<void> {
    const config = this.config;
    const number = delivery.attempts.length + 1;
    const started = Date.now();
    const record: DeliveryAttempt = { number, startedAt: new Date(started).toISOString(), durationMs: 0 };
    delivery.nextAttemptAt = undefined;
    try {
      const response = await this.send(config, delivery);
      record.httpStatus = response.status;
      if (response.status === 401 && config.mode === "oauth2") this.oauthToken = undefined;
    } catch (error) {
      record.error = describe(error);
    }
    record.durationMs = Date.now() - started;
    if (generation !== this.generation) return;
    delivery.attempts.push(record);
    const ok = record.httpStatus !== undefined && record.httpStatus >= 200 && record.httpStatus < 300;
    if (ok) {
      delivery.status = "delivered";
      delivery.completedAt = new Date().toISOString();
    } else if (number >= config.maxAttempts) {
      delivery.status = "failed";
      delivery.completedAt = new Date().toISOString();
    } else {
      delivery.status = "retrying";
      this.schedule(delivery, backoffMs(number, { baseMs: config.baseDelayMs, maxMs: Infinity, jitter: 0 }));
    }
  }

  private async send(config: WebhookConfig, delivery: Delivery): Promise<Response> {
    // Compact JSON (no whitespace between tokens): exactly the text that secret mode signs.
    const body = stringifyJson(delivery.payload);
    const headers: Record<string, string> = {
      "Content-Type": "application/json;charset=UTF-8",
      "X-Sandbox-Delivery-Id": delivery.id,
      "X-Sandbox-Event": delivery.event,
    };
    const url = new URL(config.url);
    if (config.mode === "secret") headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookPayload(config.secret, body);
    if (config.mode === "basic") {
      headers.Authorization = `Basic ${Buffer.from(`${config.basicUser}:${config.basicPassword}`, "utf8").toString("base64")}`;
    }
    if (config.mode === "oauth2") url.searchParams.set("access_token", await this.oauthAccessToken(config));
    delivery.url = config.url;
    delivery.mode = config.mode;
    return fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(config.timeoutMs) });
  }

  /** §5.5 OAuth2: `GET <token_url>?appid&secret&grant_type=client_credentials` → `access_token`. */
  private oauthAccessToken(config: WebhookConfig): Promise<string> {
    const key = `${config.tokenUrl}\n${config.oauthAppId}\n${config.oauthSecret}`;
    if (this.oauthToken && this.oauthToken.key === key && this.oauthToken.expiresAtMs > Date.now()) return Promise.resolve(this.oauthToken.token);
    // One token request at a time: concurrent deliveries share it.
    if (this.oauthPending?.key === key) return this.oauthPending.promise;
    const promise = this.fetchOauthToken(config, key).finally(() => {
      if (this.oauthPending?.promise === promise) this.oauthPending = undefined;
    });
    this.oauthPending = { key, promise };
    return promise;
  }

  private async fetchOauthToken(config: WebhookConfig, key: string): Promise<string> {
    const url = new URL(config.tokenUrl);
    url.searchParams.set("appid", config.oauthAppId);
    url.searchParams.set("secret", config.oauthSecret);
    url.searchParams.set("grant_type", "client_credentials");
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(config.timeoutMs) });
    if (!response.ok) throw new Error(`token URL answered HTTP ${response.status}`);
    const json = (await response.json().catch(() => undefined)) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof json?.access_token !== "string" || json.access_token === "") throw new Error("token URL answered without access_token");
    const expiresIn = typeof json.expires_in === "number" ? json.expires_in : Number(json.expires_in);
    // Cached until 30 s before it expires; without expires_in it is fetched for every delivery.
    if (Number.isFinite(expiresIn) && expiresIn > 30) this.oauthToken = { key, token: json.access_token, expiresAtMs: Date.now() + (expiresIn - 30) * 1000 };
    else this.oauthToken = undefined;
    return json.access_token;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "timed out";
    const cause = (error as Error & { cause?: { code?: string } }).cause;
    return cause?.code ? `${error.message} (${cause.code})` : error.message;
  }
  return String(error);
}

const senders = new WeakMap<SandboxContext, WebhookSender>();

/** The sender of a sandbox, created (and subscribed to changes and resets) on first use. */
export function webhookSender(ctx: SandboxContext): WebhookSender {
  let sender = senders.get(ctx);
  if (!sender) {
    const created = new WebhookSender(ctx);
    sender = created;
    senders.set(ctx, created);
    ctx.changeListeners.push((change) => created.onChange(change));
    ctx.onReset.push(() => created.reset());
  }
  return sender;
}
