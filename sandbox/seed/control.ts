import { z } from "zod";
import type { ControlArea } from "../app";
import { readJson, sendJson } from "../http";
import { plantDuplicates } from "./plant-duplicates";
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

  // `POST /__sandbox/seed/duplicates {perRule}`: planted duplicates (plant-duplicates.ts) in every tenant; answers what was planted.
  control.post("/seed/duplicates", async (c) => {
    const json = await readJson(c);
    const body = z.object({ perRule: z.number().int().min(1).max(500) }).safeParse(json.ok ? json.value : undefined);
    if (!body.success) return sendJson(c, { error: "body must be {perRule: whole number from 1 to 500}" }, 400);
    return sendJson(c, { planted: plantDuplicates(ctx, body.data.perRule) });
  });
};
