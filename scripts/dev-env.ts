/**
 * What `npm run dev` hands the sandbox and the app so that moving a port moves every address that
 * names it: the sandbox learns the app's URL (its registered callback address, the webhook target and
 * the `frame-ancestors` of its sign-in pages); the app learns the sandbox's (the authorization, API
 * and environment lookup URLs, and the allow-list of platform origins that is also its CSP
 * `frame-ancestors`). A setting the developer gave explicitly is kept as given.
 */
export type DevPorts = { app: number; alpha: number; beta: number };

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${name} must be a port number (1–65535), not ${JSON.stringify(value)}`);
  return n;
}

/** `PORT`, `SANDBOX_ALPHA_PORT`, `SANDBOX_BETA_PORT` (3000, 4000, 4001 when unset). */
export function devPorts(source: Record<string, string | undefined>): DevPorts {
  const ports = {
    app: port(source.PORT, 3000, "PORT"),
    alpha: port(source.SANDBOX_ALPHA_PORT, 4000, "SANDBOX_ALPHA_PORT"),
    beta: port(source.SANDBOX_BETA_PORT, 4001, "SANDBOX_BETA_PORT"),
  };
  if (new Set([ports.app, ports.alpha, ports.beta]).size < 3) throw new Error(`PORT, SANDBOX_ALPHA_PORT and SANDBOX_BETA_PORT must differ (${ports.app}, ${ports.alpha}, ${ports.beta})`);
  return ports;
}

export function devUrls(ports: DevPorts, source: Record<string, string | undefined>) {
  return {
    app: (source.APP_URL ?? `http://localhost:${ports.app}`).replace(/\/+$/, ""),
    alpha: `http://127.0.0.1:${ports.alpha}`,
    beta: `http://127.0.0.1:${ports.beta}`,
  };
}

/** The sandbox's environment: its ports and where the app is. */
export function sandboxDevEnv(source: Record<string, string | undefined>): Record<string, string> {
  const ports = devPorts(source);
  const urls = devUrls(ports, source);
  return {
    SANDBOX_ALPHA_PORT: String(ports.alpha),
    SANDBOX_BETA_PORT: String(ports.beta),
    SANDBOX_APP_URL: source.SANDBOX_APP_URL ?? urls.app,
  };
}

/** The app's environment: its port and URL, and where the platform (the sandbox) is. */
export function appDevEnv(source: Record<string, string | undefined>): Record<string, string> {
  const ports = devPorts(source);
  const urls = devUrls(ports, source);
  const given = (name: string, fallback: string) => source[name] ?? fallback;
  return {
    PORT: String(ports.app),
    APP_URL: urls.app,
    PLATFORM_AUTH_URL: given("PLATFORM_AUTH_URL", urls.alpha),
    PLATFORM_API_URL: given("PLATFORM_API_URL", urls.alpha),
    PLATFORM_EXTENSION_URL: given("PLATFORM_EXTENSION_URL", `${urls.alpha}/extension`),
    PLATFORM_DOMAIN_ALLOWLIST: given("PLATFORM_DOMAIN_ALLOWLIST", `${urls.alpha},${urls.beta}`),
  };
}
