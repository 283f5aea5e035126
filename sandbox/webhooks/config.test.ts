import { describe, expect, it } from "vitest";
import { defaultWebhookConfig, publicWebhookConfig } from "./config";

describe("webhook configuration from the environment", () => {
  it("defaults to the app's development receiver in secret mode", () => {
    expect(defaultWebhookConfig({})).toMatchObject({
      enabled: true,
      url: "http://localhost:3000/api/webhooks/platform",
      tokenUrl: "http://localhost:3000/api/webhooks/token",
      mode: "secret",
      secret: "sandbox-webhook-secret",
      maxAttempts: 5,
      baseDelayMs: 1000,
    });
  });

  it("follows SANDBOX_APP_URL and the SANDBOX_WEBHOOK_* variables", () => {
    const config = defaultWebhookConfig({
      SANDBOX_APP_URL: "http://localhost:3110/",
      SANDBOX_WEBHOOK_MODE: "basic",
      SANDBOX_WEBHOOK_BASIC_USER: "u",
      SANDBOX_WEBHOOK_BASIC_PASSWORD: "p",
      SANDBOX_WEBHOOK_ENABLED: "false",
    });
    expect(config).toMatchObject({ url: "http://localhost:3110/api/webhooks/platform", mode: "basic", basicUser: "u", basicPassword: "p", enabled: false });
  });

  it("refuses invalid settings with a message naming them", () => {
    expect(() => defaultWebhookConfig({ SANDBOX_WEBHOOK_MODE: "magic" })).toThrow(/SANDBOX_WEBHOOK/);
    expect(() => defaultWebhookConfig({ SANDBOX_WEBHOOK_URL: "ftp://x" })).toThrow(/url/);
    expect(() => defaultWebhookConfig({ SANDBOX_WEBHOOK_MAX_ATTEMPTS: "zero" })).toThrow(/maxAttempts/);
  });

  it("never shows secrets", () => {
    const shown = JSON.stringify(publicWebhookConfig(defaultWebhookConfig({})));
    expect(shown).not.toContain("sandbox-webhook-secret");
    expect(shown).not.toContain("sandbox-webhook-password");
    expect(shown).not.toContain("sandbox-webhook-oauth-secret");
  });
});
