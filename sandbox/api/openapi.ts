import { z } from "zod";
import { operationList, type Operation } from "@/lib/platform/operations";

/**
 * `/openapi.json`: an OpenAPI 3.1 document of the platform API, generated from the shared operation
 * table (`lib/platform/operations.ts`, zod 4 schemas → JSON Schema 2020-12 with `z.toJSONSchema`),
 * so the typed client, the app's proxy and this document cannot drift apart.
 */
type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Path or query parameters of an object schema. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function security(op: Operation): Array<Record<string, string[]>> {
  if (op.auth === "query") return [{ accessToken: [] }];
  if (op.auth === "bearer") return [{ bearerToken: [] }];
  return [];
}

/** The path of an operation in the document: auth and extension operations sit on their own bases. */
function documentPath(op: Operation): string {
  return op.base === "extension" ? `/extension${op.path}` : op.path;
}

const documents = new Map<string, Record<string, unknown>>();

/** The document for one environment's origin (built once per origin: the table does not change). */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  let doc = documents.get(serverUrl);
  if (!doc) {
    doc = buildDocument(serverUrl);
    documents.set(serverUrl, doc);
  }
  return doc;
}

function buildDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operationList) {
    const path = documentPath(op);
    const method = op.method.toLowerCase();
    const body = op.body
      ? { required: true, content: { [op.bodyEncoding === "form" ? "application/x-www-form-urlencoded" : "application/json"]: { schema: schemaOf(op.body, "input") } } }
      : undefined;
    const existing = paths[path]?.[method];
    if (existing) {
      // Two operations on one method and path (the token endpoint's two grants): one entry, oneOf bodies.
      existing.summary = `${String(existing.summary)} / ${op.summary}`;
      existing.operationId = `${String(existing.operationId)}|${op.name}`;
      const content = (existing.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined)?.content;
      const mine = body?.content;
      if (content && mine) {
        for (const [type, entry] of Object.entries(mine)) {
          const current = content[type]?.schema;
          content[type] = { schema: current ? { oneOf: [...((current.oneOf as JsonSchema[] | undefined) ?? [current]), entry.schema] } : entry.schema };
        }
      }
      continue;
    }
    paths[path] ??= {};
    paths[path][method] = {
      operationId: op.name,
      summary: op.summary,
      tags: [op.resource],
      security: security(op),
      parameters: [...parameters(op.params, "path"), ...parameters(op.query, "query")],
      ...(body ? { requestBody: body } : {}),
      responses: op.redirect
        ? { "302": { description: "redirect" } }
        : { "200": { description: "OK (most validation failures also answer 200 with an `error` object, §7.1)", content: { "application/json": { schema: schemaOf(op.output, "output") } } } },
    };
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Customer Engagement Platform Open API (Platform Sandbox)",
      version: "v1",
      description: "Generated from lib/platform/operations.ts. Ids are 64-bit integers written as JSON integers (§2).",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        accessToken: { type: "apiKey", in: "query", name: "access_token" },
        bearerToken: { type: "http", scheme: "bearer" },
      },
    },
    paths,
  };
}
