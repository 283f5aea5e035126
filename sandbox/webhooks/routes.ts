import { z } from "zod";
import type { ControlArea, RouteArea } from "../app";
import { environmentByName, publishChange } from "../context";
import { readJson, sendJson } from "../http";
import { publicWebhookConfig, webhookConfigSchema } from "./config";
import { webhookSender } from "./sender";

/** Subscribes the webhook sender to changes as soon as the sandbox is built (no routes of its own). */
export const webhookSenderArea: RouteArea = (_app, ctx) => {
  webhookSender(ctx);
};

const configPatch = webhookConfigSchema.partial().strict();
const deliveryStatus = z.enum(["pending", "retrying", "delivered", "failed"]);
const sendBody = z
  .object({
    environment: z.string(),
    tenantId: z.union([z.number(), z.string().regex(/^\d+$/)]).optional(),
    resource: z.enum(["customer", "event", "order", "refund", "list", "listMember", "tagDimension", "tag", "customerTag", "store"]),
    action: z.enum(["created", "updated", "deleted", "merged", "cancelled", "refunded", "added", "removed", "imported"]),
    id: z.union([z.string().min(1), z.number(), z.bigint()]),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** `/__sandbox/webhooks/*`: configuration, the delivery log, and a manual change trigger. */
export const webhookControl: ControlArea = (control, ctx) => {
  const sender = webhookSender(ctx);

  control.get("/webhooks/config", (c) => sendJson(c, publicWebhookConfig(sender.config)));
  control.post("/webhooks/config", async (c) => {
    const json = await readJson(c);
    const patch = configPatch.safeParse(json.ok ? json.value : undefined);
    if (!patch.success) return sendJson(c, { error: `invalid webhook configuration: ${z.prettifyError(patch.error)}` }, 400);
    sender.config = { ...sender.config, ...patch.data };
    return sendJson(c, publicWebhookConfig(sender.config));
  });

  control.get("/webhooks/deliveries", (c) => {
    const status = c.req.query("status");
    const parsed = status === undefined ? undefined : deliveryStatus.safeParse(status);
    if (parsed && !parsed.success) return sendJson(c, { error: "status must be pending, retrying, delivered or failed" }, 400);
    const deliveries = parsed ? sender.deliveries.filter((d) => d.status === parsed.data) : sender.deliveries;
    return sendJson(c, { deliveries });
  });

  // Publishes a change as the resource API would, so webhook receivers can be tested on their own.
  control.post("/webhooks/send", async (c) => {
    const json = await readJson(c);
    const body = sendBody.safeParse(json.ok ? json.value : undefined);
    if (!body.success) return sendJson(c, { error: `body must be {environment, tenantId?, resource, action, id, data?}: ${z.prettifyError(body.error)}` }, 400);
    const env = environmentByName(ctx, body.data.environment);
    if (!env) return sendJson(c, { error: `unknown environment: ${body.data.environment}` }, 404);
    const before = sender.queuedCount;
    publishChange(ctx, {
      environment: env.name,
      tenantId: body.data.tenantId === undefined ? env.tenant.id : Number(body.data.tenantId),
      resource: body.data.resource,
      action: body.data.action,
      id: String(body.data.id),
      data: body.data.data,
    });
    const count = sender.queuedCount - before;
    const queued = count > 0 ? sender.deliveries.slice(-count).map((d) => d.id) : [];
    return sendJson(c, { queued }, 202);
  });
};
