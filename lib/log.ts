import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * The app's logger. Tokens, secrets, authorization codes, hmac values and cookies never reach a log
 * line: known field names are censored (`censored`, below), and URLs must go through `redactUrl`
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

const SENSITIVE = new Set(SENSITIVE_KEYS);
const CENSOR = "[redacted]";

/**
 * `value` with the value of every sensitive key at its top and one and two levels down (arrays
 * included) replaced by `[redacted]`: a copy of what changed, the same object when nothing did.
 * Instead of pino's `redact` paths (`key`, `*.key`, `*.*.key`), which cost ~50 µs a line (the
 * wildcards are tried on every field), one walk of the line's own fields.
 */
function censored<T>(value: T, depth = 0, skip?: string): T {
  if (value === null || typeof value !== "object") return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (key === skip) continue;
    const field = (value as Record<string, unknown>)[key];
    const next = SENSITIVE.has(key) && field !== undefined ? CENSOR : depth < 2 ? censored(field, depth + 1) : field;
    if (next !== field) {
      copy ??= (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
      copy[key] = next;
    }
  }
  return (copy ?? value) as T;
}

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
  const log = pino(
    {
      level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
      base: { service: "engage-console" },
      // `err` is censored by its serializer, once an Error there is made plain (type, message, stack, fields).
      formatters: { bindings: (bindings) => censored(bindings), log: (line) => censored(line, 0, "err") },
      serializers: { err: (err: unknown) => censored(pino.stdSerializers.err(err as Error), 1) },
    },
    // Each line written at once on the calling thread: pino's default hands every line to a libuv
    // thread and back, which for one request at a time costs more than the request's whole log line.
    // (Node writes its own stdout to files and pipes synchronously on Linux too.)
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
  // pino formats only the root's bindings; a child's (and a grandchild's: they inherit this) are censored here.
  const child = log.child;
  log.child = function (this: Logger, bindings, options) {
    return child.call(this, censored(bindings), options);
  } as Logger["child"];
  return log;
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
