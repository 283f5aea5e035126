/**
 * The ports and settings of the e2e run: the contract ports by default (ARCHITECTURE.md §3), movable with
 * E2E_APP_PORT / E2E_ALPHA_PORT / E2E_BETA_PORT so that two runs can share a machine. The app runs
 * its production build against the sandbox, with throwaway secrets and its own SQLite file.
 */
import { randomBytes } from "node:crypto";

export const e2ePorts = {
  app: Number(process.env.E2E_APP_PORT ?? 3000),
  alpha: Number(process.env.E2E_ALPHA_PORT ?? 4000),
  beta: Number(process.env.E2E_BETA_PORT ?? 4001),
};

export const e2eUrls = {
  app: `http://localhost:${e2ePorts.app}`,
  alpha: `http://127.0.0.1:${e2ePorts.alpha}`,
  beta: `http://127.0.0.1:${e2ePorts.beta}`,
};

export const e2eDataDir = `.data/e2e-${e2ePorts.app}`;

export function sandboxEnv(): Record<string, string> {
  return {
    SANDBOX_ALPHA_PORT: String(e2ePorts.alpha),
    SANDBOX_BETA_PORT: String(e2ePorts.beta),
    SANDBOX_APP_URL: e2eUrls.app,
    SANDBOX_DB: ":memory:",
  };
}

export function appEnv(): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(e2ePorts.app),
    APP_URL: e2eUrls.app,
    PLATFORM_AUTH_URL: e2eUrls.alpha,
    PLATFORM_API_URL: e2eUrls.alpha,
    PLATFORM_EXTENSION_URL: `${e2eUrls.alpha}/extension`,
    PLATFORM_CLIENT_ID: "engage-console",
    PLATFORM_CLIENT_SECRET: "sandbox-secret",
    PLATFORM_APP_ID: "engage-console",
    PLATFORM_DOMAIN_ALLOWLIST: `${e2eUrls.alpha},${e2eUrls.beta}`,
    DATABASE_URL: `sqlite:${e2eDataDir}/app.sqlite`,
    SESSION_PASSWORD: process.env.E2E_SESSION_PASSWORD ?? randomBytes(32).toString("base64url"),
    TOKEN_ENCRYPTION_KEY: process.env.E2E_TOKEN_ENCRYPTION_KEY ?? `e2e:${randomBytes(32).toString("base64")}`,
    WEBHOOK_AUTH_MODE: "secret",
    WEBHOOK_SECRET: "sandbox-webhook-secret",
  };
}
