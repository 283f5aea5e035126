import { z } from "zod";
import { operationList, type Operation } from "./operations";

/**
 * An OpenAPI 3.1 document of the platform API, generated from the operation table (the sandbox
 * serves it at `/openapi.json`), so the typed client, the app's proxy and this document cannot
 * drift apart. Request parts are rendered as their input (`io: "input"`), responses as their
 * output; ids are `integer`/`int64`. One origin serves every base: the extension operations sit
 * under `/extension` (as in the sandbox).
 */

export type JsonSchema = Record<string, unknown>;

export function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Path or query parameters of an object schema. */
export function parameters(schema: z.ZodType | undefined, where: "path" | "query"): JsonSchema[] {
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

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ "application/json": { schema } });

/** §7 and what the real platform answers beyond it (docs/decisions/real-platform-answers.md): the error shapes every operation may meet. */
const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ErrorObject: {
    type: "object",
    description:
      "§7.1: `{error: {code, message, fieldErrors}}`, mostly with HTTP 200. Codes shown (§7.2): 400001 and 401011 (field validation), 409200 (md5 identity not found), 400005 (open id / union id not found). The real platform also sends C0002, whose `message` is the JSON text of `[{field, message}]` and which has no `fieldErrors`.",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code"],
        properties: {
          code: { type: ["string", "integer"], examples: ["400001", "401011", "409200", "400005", "C0002"] },
          message: { type: "string" },
          fieldErrors: {
            description: "`[{fieldName, message}]`; for the plain create an object from field name to message, or a list of such objects (§7.1).",
            oneOf: [
              { type: "array", items: { type: "object", properties: { fieldName: { type: "string" }, message: { type: "string" } } } },
              { type: "array", items: { type: "object", additionalProperties: { type: "string" } } },
              { type: "object", additionalProperties: { type: "string" } },
            ],
          },
        },
      },
    },
  },
  AuthLayerError: {
    type: "object",
    description:
      "`{error_code, error_description}`: users/current's failure (§7.4). The real platform answers a missing, invalid, expired or superseded access token on any /v1 call in this shape with HTTP 200 (the code is not documented; a new token may end the previous one), and a missing or deleted resource by id with HTTP 500 and `error_code` 40201 (a number, \"permission is not enough\"). `error_code` 0 beside `access_token` is success.",
    required: ["error_code"],
    properties: { error_code: { type: ["string", "integer"], examples: [40201, "40001", "invalid_token", "expired_token"] }, error_description: { type: "string" } },
  },
  OAuthError: {
    type: "object",
    description: "A refused token request (RFC 6749 §5.2; the spec does not show it, §7.7). The real platform answers HTTP 200 with `{error_code, error_description}` and a string code instead, e.g. 40004 \"the params is illegal\".",
    properties: { error: { type: "string" }, error_description: { type: "string" }, error_code: { type: ["string", "integer"] } },
  },
  PlainTextError: {
    type: "string",
    description: "§7.3 plain-text HTTP 400 bodies (e.g. \"No customer field found\"). The real platform may send the text as a JSON string literal with `application/json`.",
  },
};

/** The error answers of an operation (§7; Redocly's recommended rules ask for a 4xx on each). */
function errorResponses(op: Operation): Record<string, JsonSchema> {
  if (op.base === "auth") {
    return { "400": { description: "Invalid or refused grant", content: json(ref("OAuthError")) }, "401": { description: "Unknown client or wrong secret", content: json(ref("OAuthError")) } };
  }
  if (op.base === "extension") return { "400": { description: "Unknown, used or expired token", content: json(ref("ErrorObject")) } };
  const out: Record<string, JsonSchema> = {
    "400": {
      description: "Invalid input: an error object, or a §7.3 text (plain or as a JSON string)",
      content: { ...json({ anyOf: [ref("ErrorObject"), ref("PlainTextError")] }), "text/plain": { schema: ref("PlainTextError") } },
    },
    "401": { description: "Missing, invalid or expired access token (the real platform answers HTTP 200 with this body)", content: json(ref("AuthLayerError")) },
  };
  if (op.params) {
    out["404"] = { description: "No such resource", content: json(ref("ErrorObject")) };
    out["500"] = { description: "The real platform's answer for a missing or deleted resource: `error_code` 40201", content: json(ref("AuthLayerError")) };
  }
  return out;
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
      // URL-safe (letters, digits, `-._~`), naming both.
      existing.operationId = `${String(existing.operationId)}_${op.name}`;
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
        ? { "302": { description: "redirect" }, "400": { description: "Invalid request: an HTML error page, never a redirect", content: { "text/html": { schema: { type: "string" } } } } }
        : {
            "200": {
              description:
                op.base === "api"
                  ? "OK; also most validation failures (an `error` object, §7.1) and, on the real platform, a refused access token (`{error_code, error_description}`)"
                  : op.base === "auth"
                    ? "OK (the real platform adds `error_code: 0`); on the real platform also a refused grant (`{error_code, error_description}`, a string code)"
                    : "OK",
              content: json(
                op.base === "extension" ? schemaOf(op.output, "output") : { anyOf: [schemaOf(op.output, "output"), ref(op.base === "api" ? "ErrorObject" : "OAuthError"), ...(op.base === "api" ? [ref("AuthLayerError")] : [])] },
              ),
            },
            ...(op.method === "POST" && op.base === "api" ? { "201": { description: "Created (a new customer; on the real platform also events and orders)", content: json(schemaOf(op.output, "output")) } } : {}),
            ...(op.method === "DELETE" ? { "204": { description: "Deleted, no body (the real platform labels it `text/html;charset=utf-8`)" } } : {}),
            ...errorResponses(op),
          },
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
      schemas: ERROR_SCHEMAS,
      securitySchemes: {
        accessToken: { type: "apiKey", in: "query", name: "access_token" },
        bearerToken: { type: "http", scheme: "bearer" },
      },
    },
    paths,
  };
}

/** A document per server origin, built once for each (its table does not change while the process runs). */
export function documentPerServer(build: (serverUrl: string) => JsonSchema): (serverUrl: string) => JsonSchema {
  const documents = new Map<string, JsonSchema>();
  return (serverUrl) => {
    let doc = documents.get(serverUrl);
    if (!doc) documents.set(serverUrl, (doc = build(serverUrl)));
    return doc;
  };
}

/** The platform's document for one origin. */
export const openApiDocument = documentPerServer(buildDocument);
