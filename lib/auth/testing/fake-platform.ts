import { serve, type ServerType } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { stringifyJson } from "@/lib/platform/json";
import { computeHmac } from "../hmac";

/**
 * A minimal platform for the app's auth tests (one environment per instance): cloudinfo, authorize
 * (consents at once), the token endpoint with refresh rotation, users/current, grant counters.
 * The real emulator is the Platform Sandbox; this stays small so the flow is testable on its own.
 */

export type FakePlatform = {
  origin: string;
  openAppId: string;
  tenantId: bigint;
  grants: Record<string, number>;
  /** Rotation on: every refresh returns a new refresh token and invalidates the old one. */
  rotate: boolean;
  /** Delay of the token endpoint, to widen races. */
  tokenLatencyMs: number;
  /** What cloudinfo answers as authDomain/apiDomain (default: this platform's origin). */
  cloudDomains?: { authDomain: string; apiDomain: string };
  /** A one-time getOpenAppIdToken. */
  installToken(): string;
  /** Other environments whose install tokens this one's cloudinfo also answers (one extension service). */
  cloudPeers: FakePlatform[];
  /** Spends a one-time install token of this environment: its cloudinfo answer, or undefined. */
  takeInstallToken(token: string): Record<string, string> | undefined;
  /** Makes every refresh token issued so far invalid. */
  revokeRefreshTokens(): void;
  validRefreshTokens: Set<string>;
  /** The staff member signed in at this platform's authorize: what users/current then answers for the tokens. */
  user: Record<string, unknown>;
  calls: string[];
  close(): Promise<void>;
};

export async function startFakePlatform(options: { clientId: string; clientSecret: string; openAppId?: string; tenantId?: bigint }): Promise<FakePlatform> {
  const app = new Hono();
  const installTokens = new Set<string>();
  const codes = new Map<string, { redirect: string; user: Record<string, unknown> }>();
  const accessTokens = new Map<string, Record<string, unknown>>();
  const refreshUsers = new Map<string, Record<string, unknown>>();
  const state: FakePlatform = {
    origin: "",
    openAppId: options.openAppId ?? `oa-fake-${randomBytes(3).toString("hex")}`,
    tenantId: options.tenantId ?? 9007199254740993123n,
    grants: {},
    rotate: true,
    tokenLatencyMs: 0,
    installToken() {
      const t = `oat_${randomBytes(12).toString("hex")}`;
      installTokens.add(t);
      return t;
    },
    cloudPeers: [],
    takeInstallToken(token: string) {
      if (!installTokens.delete(token)) return undefined;
      const domains = state.cloudDomains ?? { authDomain: state.origin, apiDomain: state.origin };
      return { openAppId: state.openAppId, ...domains, productType: "cep-cloud", productVersion: "5.12.0" };
    },
    revokeRefreshTokens() {
      state.validRefreshTokens.clear();
    },
    validRefreshTokens: new Set(),
    user: { id: 9007199254740995001n, name: "Alice Admin 王丽", tenantName: "Alpha Retail 阿尔法零售" },
    calls: [],
    close: async () => undefined,
  };
  const json = (value: unknown, status = 200) => new Response(stringifyJson(value), { status, headers: { "Content-Type": "application/json" } });
  const issue = (user: Record<string, unknown>) => {
    const access = `at_${randomBytes(16).toString("hex")}`;
    const refresh = `rt_${randomBytes(16).toString("hex")}`;
    accessTokens.set(access, user);
    refreshUsers.set(refresh, user);
    state.validRefreshTokens.add(refresh);
    return { access, refresh };
  };

  app.use("*", async (c, next) => {
    state.calls.push(`${c.req.method} ${c.req.path}`);
    await next();
  });

  app.get("/extension/cloudinfo", (c) => {
    const token = c.req.query("token") ?? "";
    for (const platform of [state, ...state.cloudPeers]) {
      const info = platform.takeInstallToken(token);
      if (info) return json(info);
    }
    return json({ error: { code: "400", message: "invalid token" } }, 400);
  });

  app.get("/oauth2/authorize", (c) => {
    const q = c.req.query();
    if (q.client_id !== options.clientId || q.response_type !== "code" || !q.redirect_uri) return json({ error: "invalid_request" }, 400);
    const code = `code_${randomBytes(12).toString("hex")}`;
    codes.set(code, { redirect: q.redirect_uri, user: state.user });
    const params: [string, string][] = [["code", code], ["timestamp", String(Math.floor(Date.now() / 1000))]];
    const hmac = computeHmac(options.clientSecret, params);
    const target = new URL(q.redirect_uri);
    for (const [k, v] of params) target.searchParams.set(k, v);
    target.searchParams.set("hmac", hmac);
    target.searchParams.set("state", q.state ?? "");
    return c.redirect(target.toString(), 302);
  });

  app.post("/oauth2/token", async (c) => {
    if (!(c.req.header("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return json({ error: "form expected" }, 415);
    const form = new URLSearchParams(await c.req.text());
    if (state.tokenLatencyMs) await new Promise((r) => setTimeout(r, state.tokenLatencyMs));
    const grant = form.get("grant_type") ?? "";
    state.grants[grant] = (state.grants[grant] ?? 0) + 1;
    if (form.get("client_id") !== options.clientId || form.get("client_secret") !== options.clientSecret) return json({ error: "invalid_client" }, 401);
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const issued = codes.get(code);
      codes.delete(code);
      if (!issued || issued.redirect !== form.get("redirect_uri")) return json({ error: "invalid_grant" }, 400);
      const t = issue(issued.user);
      return json({ access_token: t.access, token_type: "authorization_code", expires_in: 7200, refresh_token: t.refresh });
    }
    if (grant === "refresh_token") {
      const presented = form.get("refresh_token") ?? "";
      if (!state.validRefreshTokens.has(presented)) return json({ error: "invalid_grant" }, 400);
      const t = issue(refreshUsers.get(presented) ?? state.user);
      if (state.rotate) state.validRefreshTokens.delete(presented);
      else state.validRefreshTokens.delete(t.refresh);
      return json({ access_token: t.access, token_type: "authorization_code", expires_in: 7200, ...(state.rotate ? { refresh_token: t.refresh } : {}) });
    }
    return json({ error: "unsupported_grant_type" }, 400);
  });

  app.get("/v1/users/current", (c) => {
    const token = c.req.query("access_token") ?? /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    const user = token ? accessTokens.get(token) : undefined;
    if (!user) return json({ error_code: "invalid_token", error_description: "access_token is invalid" }, 401);
    return json("tid" in user ? user : { ...user, tenantId: state.tenantId });
  });

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
      state.origin = `http://127.0.0.1:${info.port}`;
      resolve(s);
    });
  });
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
