import "server-only";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { documentPerServer, parameters, schemaOf, type JsonSchema } from "@/lib/platform/openapi";
import type { AppOperation } from "@/lib/http/define-operations";
import { appOperationList } from "./app-operations";
import { needsAppHeader, type AppResource } from "@/lib/http/app-routes";

/**
 * The app's own API as an OpenAPI 3.1 document, generated from its route table and schemas
 * (`app-routes.ts`, `app-operations.ts`) and served at `GET /api/openapi.json`, so the handlers,
 * the browser's client and this document cannot drift apart. It passes Redocly's recommended rules
 * with no error and no warning (`app-openapi.test.ts` runs `redocly lint` on it).
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ "application/json": { schema } });
const appError = (description: string) => ({ description, content: json(ref("AppError")) });

const TAGS: Record<AppResource, string> = {
  auth: "Authorization and installation (§5.2, §5.3): the platform's and the browser's pages",
  session: "The console's session",
  views: "Saved views of the list pages: filters, sort and columns under a name, one's own or shared",
  tasks: "Background tasks: exports, imports, syncs and their files, watched by every staff member",
  api: "The platform proxy and this document",
  customers: "Customers: the CSV export",
  identities: "Identities",
  events: "Events: the batched import",
  deals: "Orders: the refunds this console recorded",
  lists: "Lists",
  listMembers: "List members",
  tagDimensions: "Tag dimensions",
  tags: "Tags",
  customerTags: "Customer tags",
  media: "Media data imports (§4.6)",
  stores: "The shop register (§4.8)",
  storeGroups: "Shop groups (§4.8)",
  activity: "What webhooks said changed",
  dashboard: "The overview's figures",
  search: "The customer index",
  segments: "Saved segments, their counts, previews and syncs into lists",
  duplicates: "Likely duplicate customers: the review queue, merges and their history",
  preferences: "Console preferences",
  webhooks: "Webhook deliveries and the oauth2 webhook token endpoint (§5.5)",
  health: "Liveness",
  audit: "The audit log: who changed what through the console",
  tenant: "What the app keeps for the tenant, its export and the disconnect",
};

/** `{path+}` is one parameter that spans slashes; OpenAPI names it `{path}`. */
const documentPath = (path: string) => path.replace(/\{(\w+)\+\}/g, "{$1}");

function pathParameters(op: AppOperation): JsonSchema[] {
  if (op.params) return parameters(op.params, "path");
  return [...op.path.matchAll(/\{(\w+)(\+?)\}/g)].map(([, name, rest]) => ({
    name,
    in: "path",
    required: true,
    description: rest ? "the rest of the path, slashes included (the platform's path of §4)" : "",
    schema: { type: "string" },
  }));
}

function headerParameters(op: AppOperation): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (op.access === "session") {
    out.push({ name: "X-Open-App-Id", in: "header", required: false, description: "The environment of the session (§5.4.4); or `?openAppId=`", schema: { type: "string" } });
  }
  if (needsAppHeader(op, op.method)) {
    out.push({ name: "X-Engage-Request", in: "header", required: true, description: "CSRF proof, with a same-origin request (`Origin` or `Sec-Fetch-Site`)", schema: { type: "string", enum: ["1"] } });
  }
  return out;
}

function successResponses(op: AppOperation): Record<string, JsonSchema> {
  switch (op.answer) {
    case "html":
      return { "200": { description: "An HTML page", content: { "text/html": { schema: { type: "string" } } } }, "302": { description: "On to the platform's authorization or back to the console" } };
    case "redirect":
      return { "303": { description: "On to authorization, the console or the environment chooser" }, "200": { description: "Signed out (JSON for a script)", content: json({ type: "object" }) } };
    case "csv":
      return { "200": { description: "The CSV file, streamed", content: { "text/csv": { schema: { type: "string" } } } } };
    case "file":
      return { "200": { description: "The stored file (its own content type: CSV, JSON), streamed", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } } };
    case "relay":
      return {
        "200": { description: "The platform's answer, ids as strings", content: json({ description: "the operation's answer (lib/platform/README.md)" }) },
        ...(op.method === "POST" ? { "201": { description: "Created (the platform's status)", content: json({ description: "the operation's answer" }) } } : {}),
        ...(op.method === "DELETE" ? { "204": { description: "Deleted, no body" } } : {}),
      };
    default: {
      const content = op.output ? json(schemaOf(op.output, "output")) : json({ type: "object" });
      const description = (status: number) => (status === 201 ? "Created" : status === 202 ? "Accepted" : "OK");
      return Object.fromEntries((op.statuses ?? [200]).map((status) => [String(status), { description: description(status), content }]));
    }
  }
}

function errorResponses(op: AppOperation): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  if (op.body) {
    out["400"] = appError("The body is not JSON (`invalid_json`) or not UTF-8");
    out["413"] = appError("The body is too large");
    out["415"] = appError("The body is not `application/json`");
  }
  if (op.upload) {
    out["400"] = appError("The file is empty (`empty_file`) or not UTF-8 text (`not_utf8`)");
    out["413"] = appError(`The file is larger than ${op.upload.maxBytes} bytes`);
    out["415"] = appError(`The body is not \`${op.upload.contentType}\``);
  }
  if (op.access === "session") out["401"] = appError("No session of the environment, or the installation must authorize again: `reauth_required` with `redirect` (§5.2.9)");
  if (needsAppHeader(op, op.method)) out["403"] = appError("`csrf_rejected`: no `X-Engage-Request`, or a cross-site request");
  if (op.params || op.answer === "relay") out["404"] = appError("The path names nothing");
  if (op.query || op.body || op.answer === "relay") out["422"] = appError("`invalid_input`: the input failed its schema; `fieldErrors` name the fields (body fields by name, others as `query.<name>`)");
  if (op.access === "session") out["429"] = appError("The platform's rate limit (with `Retry-After`)");
  if (Object.keys(out).length === 0) out["4XX"] = appError("A refused request");
  return out;
}

function operationEntry(op: AppOperation): JsonSchema {
  const body = op.body
    ? { required: true, content: json(schemaOf(op.body, "input")) }
    : op.upload
      ? { required: true, description: `The file, at most ${op.upload.maxBytes} bytes`, content: { [op.upload.contentType]: { schema: { type: "string", format: "binary" } } } }
      : undefined;
  return {
    operationId: op.name,
    summary: op.summary,
    tags: [op.resource],
    security: op.access === "session" ? [{ sessionCookie: [] }, { sessionToken: [] }] : [],
    parameters: [...pathParameters(op), ...parameters(op.query, "query"), ...headerParameters(op)],
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponses(op), ...errorResponses(op) },
  };
}

function buildDocument(serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of appOperationList) (paths[documentPath(op.path)] ??= {})[op.method.toLowerCase()] = operationEntry(op);
  const used = new Set(appOperationList.map((op) => op.resource));
  return {
    openapi: "3.1.0",
    info: {
      title: "Engage Console API",
      version: "1",
      description: "The app's own API, generated from its route table (lib/http/app-routes.ts). Ids are decimal strings; errors are `{error: {code, message, fieldErrors?, redirect?, requestId}}`.",
      license: { name: "Proprietary", url: `${serverUrl}/` },
    },
    servers: [{ url: serverUrl }],
    tags: Object.entries(TAGS)
      .filter(([name]) => used.has(name as AppResource))
      .map(([name, description]) => ({ name, description })),
    components: {
      schemas: {
        AppError: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message", "requestId"],
              properties: {
                code: { type: "string" },
                message: { type: "string" },
                fieldErrors: { type: "array", items: { type: "object", required: ["field", "message"], properties: { field: { type: "string" }, message: { type: "string" } } } },
                redirect: { type: "string", description: "where to authorize again (`reauth_required`)" },
                requestId: { type: "string" },
              },
            },
          },
        },
      },
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The console's sealed session cookie" },
        sessionToken: { type: "http", scheme: "bearer", description: "The tab's sealed session token where the browser refused the cookie" },
      },
    },
    paths,
  };
}

/** The app's document for one origin. */
export const appOpenApiDocument = documentPerServer(buildDocument);
