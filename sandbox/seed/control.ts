import { z } from "zod";
import type { ControlArea } from "../app";
import { readJson, sendJson } from "../http";
import { seedSandbox } from "./seed";

const seedBody = z.object({ customers: z.number().int().min(0).max(2_000_000), ifEmpty: z.boolean().optional() });

/** `POST /__sandbox/seed {customers, ifEmpty?}`: deterministic demo data in every environment. */
export const seedControl: ControlArea = (control, ctx) => {
  control.post("/seed", async (c) => {
    const json = await readJson(c);
    const body = seedBody.safeParse(json.ok ? json.value : undefined);
    if (!body.success) return sendJson(c, { error: "body must be {customers: whole number up to 2000000, ifEmpty?: boolean}" }, 400);
    const summary = seedSandbox(ctx, { customers: body.data.customers, ifEmpty: body.data.ifEmpty });
    return sendJson(c, summary);
  });
};
