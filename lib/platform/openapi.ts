import { z } from "zod";
import { operationList, type Operation } from "./operations";

/**
 * An OpenAPI 3.1 document of the platform API, generated from the operation table (the sandbox
 * serves it at `/openapi.json`), so the typed client, the app's proxy and this document cannot
 * drift apart. Request parts are rendered as their input (`io: "input"`), responses as their
 * output; ids are `integer`/`int64`. One origin serves every base: the extension operations sit
 * under `/extension` (as in the sandbox).
 */

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Path or query parameters of an object schema. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema, "input");
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

/** §5.1.1: `access_token` in the query; §4.7: users/current takes a bearer token. */
function security(op: Operation): Array<Record<string, string[]>> {
  if (op.auth === "query") return [{ accessToken: [] }];
  if (op.auth === "bearer") return [{ bearerToken: [] }];
  return [];
}

/** The path of an operation in the document. */
export function documentPath(op: Operation): string {
  return op.base === "extension" ? `/extension${op.path}` : op.path;
}

function buildDocument(serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operationList) {
    const path = documentPath(op);
    const method = op.method.toLowerCase();
    const body = op.body
      ? { required: true, content: { [op.bodyEncoding === "form" ? "application/x-www-form-urlencoded" : "application/json"]: { schema: schemaOf(op.body, "input") } } }
      : undefined;
    const existing = paths[path]?.[method];
    if (existing) {
      // Two operations on one method and path (the token endpoint's two grants, §4.7): one entry, oneOf bodies.
      existing.summary = `${String(existing.summary)} / ${op.summary}`;
      existing.operationId = `${String(existing.operationId)}|${op.name}`;
      const content = (existing.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined)?.content;
      for (const [type, entry] of Object.entries(body?.content ?? {})) {
        const current = content?.[type]?.schema;
        if (content) content[type] = { schema: current ? { oneOf: [...((current.oneOf as JsonSchema[] | undefined) ?? [current]), entry.schema] } : entry.schema };
      }
      continue;
    }
    (paths[path] ??= {})[method] = {
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
      title: "Customer Engagement Platform Open API",
      version: "v1",
      description: "Generated from the operation table of the Engage Console. Ids are 64-bit integers written as JSON integers (§2).",
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

const documents = new Map<string, JsonSchema>();

/** The document for one origin, built once (the table does not change). */
export function openApiDocument(serverUrl: string): JsonSchema {
  let doc = documents.get(serverUrl);
  if (!doc) documents.set(serverUrl, (doc = buildDocument(serverUrl)));
  return doc;
}
