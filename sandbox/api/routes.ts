import "./schema";
import { Hono } from "hono";
import type { ControlArea, RouteArea } from "../app";
import { requireAccessToken } from "../auth/middleware";
import { environmentByName } from "../context";
import { readJson, sendJson } from "../http";
import { changePublisher, type ApiEnv } from "./common";
import { mergeRoutes as customerMergeRoutes } from "./customer-merge";
import { customerRoutes } from "./customers";
import { dealRoutes } from "./deals";
import { eventRoutes } from "./events";
import { listRoutes } from "./lists";
import { mediaRoutes, putStorageObject } from "./media";
import { openApiDocument } from "@/lib/platform/openapi";
import { storeRoutes } from "./stores";
import { tagRoutes } from "./tags";

/**
 * The platform's resource API (§4.1–§4.6, §4.8) under `/v1`. Every route needs a live access token
 * of this environment and sees only the data of the token's tenant.
 */
export const resourceApi: RouteArea = (app, ctx, env) => {
  const v1 = new Hono<ApiEnv>();
  // GET /v1/users/current belongs to the auth area (§4.7), mounted on its own.
  v1.use("/v1/*", async (c, next) => {
    if (c.req.path === "/v1/users/current") return next();
    return requireAccessToken(ctx, env.name)(c, next);
  });
  const publish = changePublisher(ctx, env);
  for (const routes of [customerRoutes, customerMergeRoutes, eventRoutes, dealRoutes, listRoutes, tagRoutes, mediaRoutes, storeRoutes]) routes(v1, ctx, publish);
  app.get("/openapi.json", (c) => sendJson(c, openApiDocument(env.origin)));
  app.route("/", v1);
};

/** `PUT /__sandbox/storage {environment, path, content}`: a file in a tenant's object storage (§4.5, §4.6). */
export const storageControl: ControlArea = (control, ctx) => {
  control.put("/storage", async (c) => {
    const json = await readJson(c);
    const body = json.ok ? (json.value as Record<string, unknown> | undefined) : undefined;
    const env = typeof body?.environment === "string" ? environmentByName(ctx, body.environment) : undefined;
    if (!env || typeof body?.path !== "string" || !body.path.startsWith("oss://") || typeof body.content !== "string") {
      return sendJson(c, { error: "body must be {environment, path: oss://…, content: string}" }, 400);
    }
    putStorageObject(ctx.db, env.tenant.id, body.path, body.content, ctx.clock.nowMs());
    return sendJson(c, { stored: body.path });
  });
};

/**
 * Reads of a tenant's shops, shop groups and media import tasks (`?environment=`, default the
 * first), which the platform API does not offer (§4.6, §4.8 have no list): tests check what the
 * console sent. Ids are strings.
 */
export const shopMediaControl: ControlArea = (control, ctx) => {
  const tenantOf = (environment: string | undefined) => (environment ? environmentByName(ctx, environment) : ctx.config.environments[0])?.tenant.id;
  const read = (path: string, query: (tenant: number) => Record<string, unknown>[]) =>
    control.get(path, (c) => {
      const tenant = tenantOf(c.req.query("environment"));
      if (tenant === undefined) return sendJson(c, { error: "unknown environment" }, 404);
      const rows = query(tenant).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? String(v) : v])));
      return sendJson(c, { rows });
    });
  read("/stores", (tenant) => ctx.db.prepare("SELECT id, sid, shop_name AS shopName, branch_name AS branchName, business_name AS businessName, shop_info_all AS shopInfoAll FROM stores WHERE tenant_id = ? ORDER BY id").safeIntegers(true).all(tenant) as Record<string, unknown>[]);
  read("/store-groups", (tenant) =>
    ctx.db
      .prepare("SELECT g.id, g.name, g.remark, (SELECT group_concat(m.store_id) FROM store_group_members m WHERE m.group_id = g.id) AS shopIds FROM store_groups g WHERE g.tenant_id = ? ORDER BY g.id")
      .safeIntegers(true)
      .all(tenant) as Record<string, unknown>[],
  );
  read("/media/tasks", (tenant) => ctx.db.prepare("SELECT id, file, event_type AS eventType, status, rows, date_created AS dateCreated FROM media_tasks WHERE tenant_id = ? ORDER BY id").safeIntegers(true).all(tenant) as Record<string, unknown>[]);
};
