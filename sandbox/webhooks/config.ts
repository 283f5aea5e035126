import { z } from "zod";

/**
 * Webhook configuration of the registered app (§2.9, §5.5: the platform's own management of it is
 * not shown). Defaults make `npm run dev` work with no configuration; env vars override them at
 * start, `POST /__sandbox/webhooks/config` at run time, and reset restores the start values.
 */
export const webhookModes = ["secret", "basic", "oauth2", "none"] as const;
export type WebhookMode = (typeof webhookModes)[number];

export const webhookConfigSchema = z.object({
  enabled: z.boolean(),
  url: z.url({ protocol: /^https?$/ }),
  mode: z.enum(webhookModes),
  secret: z.string().min(1),
  basicUser: z.string().min(1).refine((u) => !u.includes(":"), "must not contain ':'"),
  basicPassword: z.string().min(1),
  tokenUrl: z.url({ protocol: /^https?$/ }),
  oauthAppId: z.string().min(1),
  oauthSecret: z.string().min(1),
  /** Attempts per delivery, including the first. */
  maxAttempts: z.number().int().min(1).max(10),
  /** Delay before the 2nd attempt; doubles for each further attempt. */
  baseDelayMs: z.number().int().min(0).max(600_000),
  timeoutMs: z.number().int().min(100).max(60_000),
});
export type WebhookConfig = z.infer<typeof webhookConfigSchema>;

export function defaultWebhookConfig(source: Record<string, string | undefined> = process.env): WebhookConfig {
  const appUrl = (source.SANDBOX_APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const candidate = {
    enabled: source.SANDBOX_WEBHOOK_ENABLED !== "false",
    url: source.SANDBOX_WEBHOOK_URL ?? `${appUrl}/api/webhooks/platform`,
    mode: source.SANDBOX_WEBHOOK_MODE ?? "secret",
    secret: source.SANDBOX_WEBHOOK_SECRET ?? "sandbox-webhook-secret",
    basicUser: source.SANDBOX_WEBHOOK_BASIC_USER ?? "sandbox",
    basicPassword: source.SANDBOX_WEBHOOK_BASIC_PASSWORD ?? "sandbox-webhook-password",
    tokenUrl: source.SANDBOX_WEBHOOK_TOKEN_URL ?? `${appUrl}/api/webhooks/token`,
    oauthAppId: source.SANDBOX_WEBHOOK_OAUTH_APPID ?? "engage-console",
    oauthSecret: source.SANDBOX_WEBHOOK_OAUTH_SECRET ?? "sandbox-webhook-oauth-secret",
    maxAttempts: Number(source.SANDBOX_WEBHOOK_MAX_ATTEMPTS ?? 5),
    baseDelayMs: Number(source.SANDBOX_WEBHOOK_BASE_DELAY_MS ?? 1000),
    timeoutMs: Number(source.SANDBOX_WEBHOOK_TIMEOUT_MS ?? 5000),
  };
  const parsed = webhookConfigSchema.safeParse(candidate);
  if (!parsed.success) throw new Error(`invalid SANDBOX_WEBHOOK_* settings: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The configuration as the control plane shows it: secrets are never echoed. */
export function publicWebhookConfig(config: WebhookConfig) {
  const { secret: _s, basicPassword: _p, oauthSecret: _o, ...rest } = config;
  return { ...rest, secretSet: true, basicPasswordSet: true, oauthSecretSet: true };
}
