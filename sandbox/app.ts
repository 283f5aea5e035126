import { Hono } from "hono";
import { Clock } from "./clock";
import { isObserved, type EnvironmentConfig, type SandboxConfig } from "./config";
import { controlRoutes } from "./control";
import { ensureBaseData, Stats, type FaultRule, type SandboxContext } from "./context";
import { openDatabase } from "./db";
import { sendJson } from "./http";
import { observedAnswers } from "./observed";

/** A route area of the sandbox (auth server, resource API, admin shell, …) mounted on each environment. */
export type RouteArea = (app: Hono, ctx: SandboxContext, env: EnvironmentConfig) => void;
/** Extra control-plane routes of an area, under `/__sandbox`. */
export type ControlArea = (control: Hono, ctx: SandboxContext) => void;

export type SandboxParts = { areas?: RouteArea[]; controls?: ControlArea[] };

/** Groups concrete paths into endpoints for the call counters: numeric path segments become `{id}`. */
export function endpointKey(method: string, path: string): string {
  return `${method} ${path.replace(/\/\d+(?=\/|$)/g, "/{id}")}`;
}

function faultFor(faults: FaultRule[], method: string, path: string): FaultRule | undefined {
  return faults.find((f) => path.startsWith(f.path) && (!f.method || f.method === method));
}

export function createContext(config: SandboxConfig): SandboxContext {
  const ctx: SandboxContext = {
    config,
    db: openDatabase(config.dbFile),
    clock: new Clock(),
    stats: new Stats(),
    faults: [],
    onReset: [],
    changeListeners: [],
  };
  ensureBaseData(ctx);
  return ctx;
}

/** The HTTP app of one environment (its own origin = authDomain = apiDomain, §5.4). */
export function createEnvironmentApp(ctx: SandboxContext, env: EnvironmentConfig, parts: SandboxParts = {}): Hono {
  const app = new Hono();

  app.use("*", async (c, next) => {
    const path = c.req.path;
    if (path.startsWith("/__sandbox") || path === "/health") return next();
    ctx.stats.countCall(endpointKey(c.req.method, path));
    const fault = faultFor(ctx.faults, c.req.method, path);
    if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault?.errorRate && Math.random() < fault.errorRate) {
      const status = fault.status ?? 503;
      if (fault.retryAfterSeconds !== undefined) c.header("Retry-After", String(fault.retryAfterSeconds));
      return sendJson(c, { error: { code: String(status), message: "fault injected by the sandbox" } }, status);
    }
    return next();
  });

  // The real platform's answers instead of the spec's, where they differ (sandbox/README.md "Profiles").
  if (isObserved(env)) app.use("*", observedAnswers(ctx));

  app.get("/health", (c) => sendJson(c, { status: "ok", environment: env.name, openAppId: env.openAppId, profile: env.profile }));

  app.route("/__sandbox", controlRoutes(ctx, (parts.controls ?? []).map((add) => (control: Hono) => add(control, ctx))));

  for (const area of parts.areas ?? []) area(app, ctx, env);

  app.notFound((c) => sendJson(c, { error: { code: "404", message: `no such endpoint: ${c.req.method} ${c.req.path}` } }, 404));
  app.onError((err, c) => {
    console.error("sandbox error", err);
    return sendJson(c, { error: { code: "500", message: "internal sandbox error" } }, 500);
  });
  return app;
}
