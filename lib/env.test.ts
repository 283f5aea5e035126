import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadEnv, parseEncryptionKeys, SANDBOX_DEFAULTS } from "./env";

const tmp = () => mkdtempSync(path.join(tmpdir(), "engage-env-"));
const key = (byte: number) => Buffer.alloc(32, byte).toString("base64");

const production = {
  NODE_ENV: "production",
  PLATFORM_AUTH_URL: "https://auth.example.com",
  PLATFORM_API_URL: "https://api.example.com",
  PLATFORM_EXTENSION_URL: "https://ext.example.com",
  PLATFORM_CLIENT_ID: "my-client",
  PLATFORM_CLIENT_SECRET: "a-real-client-secret",
  PLATFORM_APP_ID: "my-app",
  PLATFORM_DOMAIN_ALLOWLIST: "https://*.example.com",
  SESSION_PASSWORD: "x".repeat(40),
  TOKEN_ENCRYPTION_KEY: `k2:${key(2)},k1:${key(1)}`,
  WEBHOOK_AUTH_MODE: "secret",
  WEBHOOK_SECRET: "a-long-webhook-secret",
};

describe("settings in development", () => {
  it("default every platform setting to the sandbox contract without any .env", () => {
    const e = loadEnv({ NODE_ENV: "development" }, { dataDir: tmp() });
    expect(e.platform.authUrl).toBe(SANDBOX_DEFAULTS.PLATFORM_AUTH_URL);
    expect(e.platform.extensionUrl).toBe("http://127.0.0.1:4000/extension");
    expect(e.platform.clientId).toBe("engage-console");
    expect(e.platform.domainAllowlist).toEqual(["http://127.0.0.1:4000", "http://127.0.0.1:4001"]);
    expect(e.appUrl).toBe("http://localhost:3000");
    expect(e.database.kind).toBe("sqlite");
    expect(e.webhook.mode).toBe("secret");
  });

  it("generate the dev secrets once into the data folder, readable only by the owner", () => {
    const dir = tmp();
    const first = loadEnv({ NODE_ENV: "development" }, { dataDir: dir });
    const second = loadEnv({ NODE_ENV: "development" }, { dataDir: dir });
    expect(first.sessionPassword.length).toBeGreaterThanOrEqual(32);
    expect(second.sessionPassword).toBe(first.sessionPassword);
    expect(second.tokenKeys[0]!.key.equals(first.tokenKeys[0]!.key)).toBe(true);
    const file = path.join(dir, "dev-secrets.json");
    expect(JSON.parse(readFileSync(file, "utf8")).SESSION_PASSWORD).toBe(first.sessionPassword);
    expect(statSync(file).mode & 0o077).toBe(0);
  });
});

describe("settings in production", () => {
  it("accept a complete configuration", () => {
    const e = loadEnv(production, { dataDir: tmp() });
    expect(e.tokenKeys.map((k) => k.id)).toEqual(["k2", "k1"]);
    expect(e.platform.domainAllowlist).toEqual(["https://*.example.com"]);
  });

  it("stop start-up with one message naming each missing or weak setting", () => {
    let error: unknown;
    try {
      loadEnv({ NODE_ENV: "production", SESSION_PASSWORD: "short", TOKEN_ENCRYPTION_KEY: "k1:dG9vc2hvcnQ=" }, { dataDir: tmp() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    for (const name of [
      "SESSION_PASSWORD must be at least 32",
      "TOKEN_ENCRYPTION_KEY: key \"k1\" must be 32 bytes",
      "PLATFORM_AUTH_URL is required",
      "PLATFORM_CLIENT_SECRET is required",
      "WEBHOOK_AUTH_MODE is required",
    ]) {
      expect(message).toContain(name);
    }
  });

  it("reject malformed values with the setting's name", () => {
    expect(() => loadEnv({ ...production, PLATFORM_AUTH_URL: "not a url" }, { dataDir: tmp() })).toThrow(/PLATFORM_AUTH_URL/);
    expect(() => loadEnv({ ...production, PLATFORM_DOMAIN_ALLOWLIST: "example.com/path" }, { dataDir: tmp() })).toThrow(
      /PLATFORM_DOMAIN_ALLOWLIST/,
    );
    expect(() => loadEnv({ ...production, DATABASE_URL: "mysql://x" }, { dataDir: tmp() })).toThrow(/DATABASE_URL/);
    expect(() => loadEnv({ ...production, WEBHOOK_AUTH_MODE: "basic" }, { dataDir: tmp() })).toThrow(/WEBHOOK_BASIC_USER/);
  });

  it("DATABASE_SCHEMA names the PostgreSQL schema; a bad name or SQLite is refused with the setting's name", () => {
    const pg = { ...production, DATABASE_URL: "postgres://u@127.0.0.1/db" };
    expect(loadEnv(pg, { dataDir: tmp() }).database).toEqual({ kind: "postgres", url: "postgres://u@127.0.0.1/db" });
    expect(loadEnv({ ...pg, DATABASE_SCHEMA: "engage_a" }, { dataDir: tmp() }).database).toEqual({ kind: "postgres", url: "postgres://u@127.0.0.1/db", schema: "engage_a" });
    for (const bad of ["Engage", "a;drop", "1abc", "x".repeat(58)]) expect(() => loadEnv({ ...pg, DATABASE_SCHEMA: bad }, { dataDir: tmp() })).toThrow(/DATABASE_SCHEMA/);
    expect(() => loadEnv({ ...production, DATABASE_SCHEMA: "engage_a" }, { dataDir: tmp() })).toThrow(/DATABASE_SCHEMA: only with a PostgreSQL/);
  });
});

describe("webhook authentication settings", () => {
  const { WEBHOOK_SECRET: _secret, ...withoutWebhook } = production;
  const problemsOf = (settings: Record<string, string>) => {
    try {
      loadEnv({ ...withoutWebhook, ...settings }, { dataDir: tmp() });
      return "";
    } catch (error) {
      return (error as EnvError).message;
    }
  };

  it.each([
    ["secret", "WEBHOOK_SECRET", "WEBHOOK_SECRET"],
    ["basic", "WEBHOOK_BASIC_USER", "WEBHOOK_BASIC_PASSWORD"],
    ["oauth2", "WEBHOOK_OAUTH_APPID", "WEBHOOK_OAUTH_SECRET"],
  ])("%s mode: its settings are required and, in production, its secret has at least 16 characters", (mode, id, secret) => {
    const missing = problemsOf({ WEBHOOK_AUTH_MODE: mode });
    expect(missing).toContain(`${id} is required when WEBHOOK_AUTH_MODE=${mode}`);
    expect(missing).toContain(`${secret} is required when WEBHOOK_AUTH_MODE=${mode}`);
    expect(problemsOf({ WEBHOOK_AUTH_MODE: mode, [id]: "someone", [secret]: "x".repeat(15) })).toContain(`${secret} must be at least 16 characters`);
    expect(problemsOf({ WEBHOOK_AUTH_MODE: mode, [id]: "someone", [secret]: "x".repeat(16) })).toBe("");
  });

  it("give each mode its settings", () => {
    const load = (settings: Record<string, string>) => loadEnv({ ...withoutWebhook, ...settings }, { dataDir: tmp() }).webhook;
    expect(load({ WEBHOOK_AUTH_MODE: "basic", WEBHOOK_BASIC_USER: "hook", WEBHOOK_BASIC_PASSWORD: "p".repeat(16) })).toEqual({ mode: "basic", user: "hook", password: "p".repeat(16) });
    expect(load({ WEBHOOK_AUTH_MODE: "oauth2", WEBHOOK_OAUTH_APPID: "app", WEBHOOK_OAUTH_SECRET: "s".repeat(16) })).toEqual({ mode: "oauth2", appId: "app", secret: "s".repeat(16) });
    expect(load({ WEBHOOK_AUTH_MODE: "none" })).toEqual({ mode: "none" });
  });
});

describe("token encryption keys", () => {
  it("parse ids and reject duplicates or wrong sizes", () => {
    expect(parseEncryptionKeys(`a:${key(1)},b:${key(2)}`).keys.map((k) => k.id)).toEqual(["a", "b"]);
    expect(parseEncryptionKeys(`a:${key(1)},a:${key(2)}`).problems[0]).toMatch(/used twice/);
    expect(parseEncryptionKeys("a:AAAA").problems[0]).toMatch(/32 bytes/);
  });
});
