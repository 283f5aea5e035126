import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * The app's logger. Tokens, secrets, authorization codes, hmac values and cookies never reach a log
 * line: known field names are censored by pino's redaction, and URLs must go through `redactUrl`
 * before they are logged (query strings carry `code`, `hmac`, `access_token`, `getOpenAppIdToken`).
 */

const SENSITIVE_KEYS = [
  "access_token",
  "accessToken",
  "refresh_token",
  "refreshToken",
  "client_secret",
  "clientSecret",
  "secret",
  "password",
  "code",
  "hmac",
  "token",
  "getOpenAppIdToken",
  "authorization",
  "cookie",
  "set-cookie",
  "sessionToken",
  "state",
];

const REDACT_PATHS = SENSITIVE_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const dotted = key.startsWith("[") ? key : `.${key}`;
  return [key, `*${dotted}`, `*.*${dotted}`];
});

const SENSITIVE_PARAMS = new Set(SENSITIVE_KEYS.map((k) => k.toLowerCase()));

/** A URL with every sensitive query value replaced by `[redacted]` (the URL itself may be relative). */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const safe = query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const key = eq < 0 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key.replace(/\+/g, " "));
      } catch {
        // keep the raw key
      }
      return eq >= 0 && SENSITIVE_PARAMS.has(name.toLowerCase()) ? `${key}=[redacted]` : pair;
    })
    .join("&");
  return `${url.slice(0, q)}?${safe}`;
}

function createLogger(destination?: DestinationStream): Logger {
  return pino(
    {
      level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
      base: { service: "engage-console" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}

let root: Logger = createLogger();

/** The process logger. */
export function logger(): Logger {
  return root;
}

/** Tests only: send every log line (all levels) to memory until `restore` is called. */
export function captureLogsForTests(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const previous = root;
  root = createLogger({ write: (line: string) => void lines.push(line) });
  root.level = "trace";
  return {
    lines,
    restore() {
      root = previous;
    },
  };
}
