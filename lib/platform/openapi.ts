import { z } from "zod";
import { operationList, type Operation, type OperationBase } from "./operations";

/**
 * An OpenAPI 3.1 document of the platform API, generated from the operation table (the sandbox
 * serves it at `/openapi.json`). Request parts are rendered as their input (`io: "input"`), responses
 * as their output; ids are `integer`/`int64`. `bases` picks which addresses to describe (the
 * sandbox's resource API origin also serves the auth endpoints).
 */

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(op: Operation): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [location, part] of [["path", op.params], ["query", op.query]] as const) {
    if (!part) continue;
    const json = schemaOf(part, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: location, required: location === "path" || (json.required ?? []).includes(name), schema });
    }
  }
  if (op.auth === "query") out.push({ name: "access_token", in: "query", required: true, schema: { type: "string" }, description: "§5.1.1" });
  return out;
}

export function buildOpenApiDocument(options: { serverUrl: string; title?: string; version?: string; bases?: OperationBase[] }): JsonSchema {
  const bases = new Set<OperationBase>(options.bases ?? ["api", "auth"]);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operationList) {
    if (!bases.has(op.base) || op.redirect) continue;
    const item: JsonSchema = {
      operationId: op.name,
      summary: op.summary,
      tags: [op.resource],
      parameters: parameters(op),
      responses: {
        "200": { description: "success (errors of §7 may also come with HTTP 200)", content: { "application/json": { schema: schemaOf(op.output, "output") } } },
        default: { description: "error (§7)" },
      },
    };
    if (op.auth === "bearer") item.security = [{ bearer: [] }];
    if (op.body) {
      const media = op.bodyEncoding === "form" ? "application/x-www-form-urlencoded" : "application/json";
      item.requestBody = { required: true, content: { [media]: { schema: schemaOf(op.body, "input") } } };
    }
    const methods = (paths[op.path] ??= {});
    const key = op.method.toLowerCase();
    // The two token grants share one endpoint (§4.7): describe it once, with both bodies.
    const existing = methods[key] as { requestBody?: { content: Record<string, { schema: JsonSchema }> } } | undefined;
    if (existing?.requestBody && item.requestBody) {
      const media = Object.keys(existing.requestBody.content)[0]!;
      const previous = existing.requestBody.content[media]!.schema;
      const next = (item.requestBody as { content: Record<string, { schema: JsonSchema }> }).content[media]!.schema;
      existing.requestBody.content[media]!.schema = { oneOf: [previous, next] };
      continue;
    }
    methods[key] = item;
  }
  return {
    openapi: "3.1.0",
    info: { title: options.title ?? "Customer Engagement Platform Open API", version: options.version ?? "v1" },
    servers: [{ url: options.serverUrl }],
    paths,
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  };
}
