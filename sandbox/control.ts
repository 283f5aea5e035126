import { Hono } from "hono";
import { z } from "zod";
import { issueTokens } from "./auth/tokens";
import type { SandboxContext } from "./context";
import { environmentByName, resetSandbox } from "./context";
import { readJson, sendJson } from "./http";

const clockBody = z.object({ advanceSeconds: z.number().int().min(-86_400 * 3650).max(86_400 * 3650) });
const faultRule = z.object({
  path: z.string().startsWith("/"),
  method: z.string().toUpperCase().optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  status: z.number().int().min(400).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
});
const faultsBody = z.object({ faults: z.array(faultRule).max(50) });
const tokensBody = z.object({ environment: z.string(), tenantId: z.union([z.number(), z.bigint(), z.string()]).optional() });

/** The control plane of ARCHITECTURE.md §3. Extra routes of other areas are added by `extend`. */
export function controlRoutes(ctx: SandboxContext, extend: Array<(app: Hono) => void> = []): Hono {
  const app = new Hono();

  app.use("*", async (c, next) => {
    if (ctx.config.production) return sendJson(c, { error: "the sandbox control plane is disabled in production mode" }, 403);
    await next();
  });

  app.post("/reset", (c) => {
    resetSandbox(ctx);
    return sendJson(c, { reset: true });
  });

  app.get("/clock", (c) => sendJson(c, { now: ctx.clock.now().toISOString() }));
  app.post("/clock", async (c) => {
    const json = await readJson(c);
    const body = clockBody.safeParse(json.ok ? json.value : undefined);
    if (!body.success) return sendJson(c, { error: "body must be {advanceSeconds: integer}" }, 400);
    ctx.clock.advance(body.data.advanceSeconds);
    return sendJson(c, { now: ctx.clock.now().toISOString() });
  });

  app.get("/faults", (c) => sendJson(c, { faults: ctx.faults }));
  app.post("/faults", async (c) => {
    const json = await readJson(c);
    const body = faultsBody.safeParse(json.ok ? json.value : undefined);
    if (!body.success) return sendJson(c, { error: "body must be {faults: [{path, method?, latencyMs?, errorRate?, status?, retryAfterSeconds?}]}" }, 400);
    ctx.faults.splice(0, ctx.faults.length, ...body.data.faults);
    return sendJson(c, { faults: ctx.faults });
  });

  app.get("/stats", (c) => sendJson(c, ctx.stats));

  app.post("/tokens", async (c) => {
    const json = await readJson(c);
    const body = tokensBody.safeParse(json.ok ? json.value : undefined);
    if (!body.success) return sendJson(c, { error: "body must be {environment, tenantId?}" }, 400);
    const env = environmentByName(ctx, body.data.environment);
    if (!env) return sendJson(c, { error: `unknown environment: ${body.data.environment}` }, 404);
    const tenantId = body.data.tenantId === undefined ? env.tenant.id : Number(body.data.tenantId);
    const tenant = ctx.db.prepare("SELECT id FROM tenants WHERE id = ? AND environment = ?").get(tenantId, env.name);
    if (!tenant) return sendJson(c, { error: `tenant ${String(body.data.tenantId)} is not in ${env.name}` }, 404);
    const staff = ctx.db.prepare("SELECT id FROM staff WHERE tenant_id = ? ORDER BY id LIMIT 1").get(tenantId) as
      | { id: number }
      | undefined;
    const tokens = issueTokens(ctx, {
      environment: env.name,
      tenantId,
      userId: staff?.id ?? env.staff.id,
      clientId: ctx.config.app.clientId,
    });
    return sendJson(c, tokens);
  });

  for (const add of extend) add(app);
  return app;
}
