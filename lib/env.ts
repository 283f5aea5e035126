import "server-only";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Every setting of the app, validated once. In development every platform setting defaults to the
 * Platform Sandbox contract (ARCHITECTURE.md §3) so no `.env` is needed, and the two secrets are generated
 * once into `.data/`. In production nothing defaults to the sandbox and a missing or weak secret
 * stops start-up with one message that names each problem.
 */

export const SANDBOX_DEFAULTS = {
  PLATFORM_AUTH_URL: "http://127.0.0.1:4000",
  PLATFORM_API_URL: "http://127.0.0.1:4000",
  PLATFORM_EXTENSION_URL: "http://127.0.0.1:4000/extension",
  PLATFORM_CLIENT_ID: "engage-console",
  PLATFORM_CLIENT_SECRET: "sandbox-secret",
  PLATFORM_APP_ID: "engage-console",
  PLATFORM_DOMAIN_ALLOWLIST: "http://127.0.0.1:4000,http://127.0.0.1:4001",
  WEBHOOK_AUTH_MODE: "secret",
  WEBHOOK_SECRET: "sandbox-webhook-secret",
} as const;

const MIN_SESSION_PASSWORD = 32;
const MIN_WEBHOOK_SECRET = 16;

const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));
const optionalText = z.string().trim().min(1).optional();

/** One allowlist entry: an origin whose host may start with `*.` (e.g. `https://*.example.com`). */
const originPattern = z
  .string()
  .trim()
  .regex(/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i, "must be an origin such as https://*.example.com");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: url.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  PLATFORM_AUTH_URL: url.optional(),
  PLATFORM_API_URL: url.optional(),
  PLATFORM_EXTENSION_URL: url.optional(),
  PLATFORM_CLIENT_ID: optionalText,
  PLATFORM_CLIENT_SECRET: optionalText,
  PLATFORM_APP_ID: optionalText,
  PLATFORM_DOMAIN_ALLOWLIST: optionalText,
  DEPLOYMENT_MODE: z.enum(["public", "private"]).default("public"),
  /** §5.3: how old the callback's `timestamp` may be, in seconds. */
  AUTH_HMAC_MAX_AGE_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),

  DATABASE_URL: optionalText,
  /** PostgreSQL only: the schema of the app's tables (its job queue's are `<schema>_jobs`), so that several deployments or test runs can share one database. */
  DATABASE_SCHEMA: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_]{0,56}$/, "must be a lower-case SQL name (letters, digits, _; at most 57 characters)")
    .optional(),
  /** The tenant customer index's sync (README "Customer search"): `off` stops it (search answers from what is indexed). */
  CUSTOMER_INDEX_SYNC: z.enum(["on", "off"]).default("on"),
  INSTALLATION_DATA_GRACE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SESSION_PASSWORD: optionalText,
  TOKEN_ENCRYPTION_KEY: optionalText,

  WEBHOOK_AUTH_MODE: z.enum(["secret", "basic", "oauth2", "none"]).optional(),
  WEBHOOK_SECRET: optionalText,
  WEBHOOK_BASIC_USER: optionalText,
  WEBHOOK_BASIC_PASSWORD: optionalText,
  WEBHOOK_OAUTH_APPID: optionalText,
  WEBHOOK_OAUTH_SECRET: optionalText,
});

export type EncryptionKey = { id: string; key: Buffer };

export type AppEnv = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  appUrl: string;
  logLevel: z.infer<typeof schema>["LOG_LEVEL"];
  platform: {
    authUrl: string;
    apiUrl: string;
    extensionUrl: string;
    clientId: string;
    clientSecret: string;
    appId: string;
    /** Origin patterns the app trusts as platform environments (cloudinfo domains, frame ancestors). */
    domainAllowlist: string[];
    deploymentMode: "public" | "private";
    hmacMaxAgeSeconds: number;
  };
  /** `schema`: DATABASE_SCHEMA (unset: the connection's default search path and the queue's `engage_jobs`). */
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string; schema?: string };
  /** Whether the customer index is kept in step with the platform (CUSTOMER_INDEX_SYNC). */
  customerIndexSync: boolean;
  /** How long the data of an installation the platform refused for good is kept (INSTALLATION_DATA_GRACE_DAYS). */
  installationDataGraceDays: number;
  sessionPassword: string;
  /** The first key encrypts; every key decrypts (rotation). */
  tokenKeys: EncryptionKey[];
  webhook:
    | { mode: "secret"; secret: string }
    | { mode: "basic"; user: string; password: string }
    | { mode: "oauth2"; appId: string; secret: string }
    | { mode: "none" };
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Engage Console cannot start; fix these settings:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

type Source = Record<string, string | undefined>;

export type LoadOptions = { dataDir?: string };

/** Parses `kid:base64,kid2:base64`; a bare base64 value gets the key id `k1`. */
export function parseEncryptionKeys(value: string): { keys: EncryptionKey[]; problems: string[] } {
  const keys: EncryptionKey[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const [i, raw] of value.split(",").map((s) => s.trim()).filter(Boolean).entries()) {
    const sep = raw.indexOf(":");
    const id = sep > 0 ? raw.slice(0, sep) : `k${i + 1}`;
    const material = sep > 0 ? raw.slice(sep + 1) : raw;
    const key = Buffer.from(material, "base64");
    if (!/^[A-Za-z0-9_-]{1,16}$/.test(id)) problems.push(`TOKEN_ENCRYPTION_KEY: key id "${id}" must be 1-16 letters, digits, - or _`);
    else if (ids.has(id)) problems.push(`TOKEN_ENCRYPTION_KEY: key id "${id}" is used twice`);
    if (key.length !== 32) problems.push(`TOKEN_ENCRYPTION_KEY: key "${id}" must be 32 bytes of base64 (openssl rand -base64 32)`);
    ids.add(id);
    keys.push({ id, key });
  }
  if (keys.length === 0) problems.push("TOKEN_ENCRYPTION_KEY: no key given");
  return { keys, problems };
}

function devSecrets(dataDir: string): { SESSION_PASSWORD: string; TOKEN_ENCRYPTION_KEY: string } {
  const file = path.join(dataDir, "dev-secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const secrets = {
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    TOKEN_ENCRYPTION_KEY: `dev1:${randomBytes(32).toString("base64")}`,
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

function parseDatabase(value: string | undefined, dataDir: string, problems: string[]): AppEnv["database"] {
  if (!value) return { kind: "sqlite", file: path.join(dataDir, "engage-console.sqlite") };
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: "postgres", url: value };
  if (value.startsWith("sqlite:")) return { kind: "sqlite", file: path.resolve(value.slice("sqlite:".length)) };
  problems.push("DATABASE_URL: use postgres://… for PostgreSQL or sqlite:<path> for SQLite (unset = SQLite under .data/)");
  return { kind: "sqlite", file: path.join(dataDir, "engage-console.sqlite") };
}

export function loadEnv(source: Source = process.env, options: LoadOptions = {}): AppEnv {
  const dataDir = options.dataDir ?? path.resolve(".data");
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const problems: string[] = [];

  // Development falls back to the sandbox contract; production must say where the platform is.
  function platformSetting<K extends keyof typeof SANDBOX_DEFAULTS>(key: K): string {
    const value = (e as Record<string, unknown>)[key] as string | undefined;
    if (value) return value;
    if (!production) return SANDBOX_DEFAULTS[key];
    problems.push(`${key} is required in production`);
    return "";
  }

  const secrets = production
    ? { SESSION_PASSWORD: e.SESSION_PASSWORD, TOKEN_ENCRYPTION_KEY: e.TOKEN_ENCRYPTION_KEY }
    : {
        ...devSecrets(dataDir),
        ...(e.SESSION_PASSWORD ? { SESSION_PASSWORD: e.SESSION_PASSWORD } : {}),
        ...(e.TOKEN_ENCRYPTION_KEY ? { TOKEN_ENCRYPTION_KEY: e.TOKEN_ENCRYPTION_KEY } : {}),
      };

  if (!secrets.SESSION_PASSWORD) problems.push("SESSION_PASSWORD is required in production");
  else if (secrets.SESSION_PASSWORD.length < MIN_SESSION_PASSWORD)
    problems.push(`SESSION_PASSWORD must be at least ${MIN_SESSION_PASSWORD} characters`);

  let tokenKeys: EncryptionKey[] = [];
  if (!secrets.TOKEN_ENCRYPTION_KEY) problems.push("TOKEN_ENCRYPTION_KEY is required in production");
  else {
    const parsedKeys = parseEncryptionKeys(secrets.TOKEN_ENCRYPTION_KEY);
    tokenKeys = parsedKeys.keys;
    problems.push(...parsedKeys.problems);
  }

  const allowlistRaw = platformSetting("PLATFORM_DOMAIN_ALLOWLIST");
  const domainAllowlist = allowlistRaw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const entry of domainAllowlist) {
    const check = originPattern.safeParse(entry);
    if (!check.success) problems.push(`PLATFORM_DOMAIN_ALLOWLIST: "${entry}" ${check.error.issues[0]?.message}`);
  }

  const clientSecret = platformSetting("PLATFORM_CLIENT_SECRET");
  const webhook = parseWebhook(e, production, problems);

  const platform = {
    authUrl: platformSetting("PLATFORM_AUTH_URL"),
    apiUrl: platformSetting("PLATFORM_API_URL"),
    extensionUrl: platformSetting("PLATFORM_EXTENSION_URL"),
    clientId: platformSetting("PLATFORM_CLIENT_ID"),
    clientSecret,
    appId: platformSetting("PLATFORM_APP_ID"),
    domainAllowlist,
    deploymentMode: e.DEPLOYMENT_MODE,
    hmacMaxAgeSeconds: e.AUTH_HMAC_MAX_AGE_SECONDS,
  };
  const database = parseDatabase(e.DATABASE_URL, dataDir, problems);
  if (e.DATABASE_SCHEMA) {
    if (database.kind === "postgres") database.schema = e.DATABASE_SCHEMA;
    else problems.push("DATABASE_SCHEMA: only with a PostgreSQL DATABASE_URL (SQLite has no schemas)");
  }

  if (problems.length > 0) throw new EnvError(problems);

  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    appUrl: e.APP_URL ?? `http://localhost:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    platform,
    database,
    customerIndexSync: e.CUSTOMER_INDEX_SYNC === "on",
    installationDataGraceDays: e.INSTALLATION_DATA_GRACE_DAYS,
    sessionPassword: secrets.SESSION_PASSWORD!,
    tokenKeys,
    webhook,
  };
}

function parseWebhook(e: z.infer<typeof schema>, production: boolean, problems: string[]): AppEnv["webhook"] {
  const mode = e.WEBHOOK_AUTH_MODE ?? (production ? undefined : SANDBOX_DEFAULTS.WEBHOOK_AUTH_MODE);
  /** A setting the mode needs; a secret one (`minLength`) must be long enough in production. */
  const required = (name: string, value: string | undefined, minLength = 0): string => {
    if (!value) problems.push(`${name} is required when WEBHOOK_AUTH_MODE=${mode}`);
    else if (production && value.length < minLength) problems.push(`${name} must be at least ${minLength} characters`);
    return value ?? "";
  };
  switch (mode) {
    case undefined:
      problems.push("WEBHOOK_AUTH_MODE is required in production (secret, basic, oauth2, or none to accept unauthenticated webhooks)");
      return { mode: "none" };
    case "secret":
      return { mode, secret: required("WEBHOOK_SECRET", e.WEBHOOK_SECRET ?? (production ? undefined : SANDBOX_DEFAULTS.WEBHOOK_SECRET), MIN_WEBHOOK_SECRET) };
    case "basic":
      return { mode, user: required("WEBHOOK_BASIC_USER", e.WEBHOOK_BASIC_USER), password: required("WEBHOOK_BASIC_PASSWORD", e.WEBHOOK_BASIC_PASSWORD, MIN_WEBHOOK_SECRET) };
    case "oauth2":
      return { mode, appId: required("WEBHOOK_OAUTH_APPID", e.WEBHOOK_OAUTH_APPID), secret: required("WEBHOOK_OAUTH_SECRET", e.WEBHOOK_OAUTH_SECRET, MIN_WEBHOOK_SECRET) };
    case "none":
      return { mode };
  }
}

let cached: AppEnv | undefined;

/** The validated settings of this process (loaded on first use). */
export function env(): AppEnv {
  cached ??= loadEnv();
  return cached;
}

/** Tests only: forget the cached settings. */
export function resetEnvForTests(): void {
  cached = undefined;
}
