import { describe, expect, it } from "vitest";
import { documentPath, openApiDocument } from "./openapi";
import { operationList } from "./operations";

type Entry = { operationId: string; security: unknown[]; parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>; requestBody?: unknown };

describe("OpenAPI document from the operation table", () => {
  const doc = openApiDocument("http://127.0.0.1:4000") as {
    openapi: string;
    paths: Record<string, Record<string, Entry>>;
    components: { securitySchemes: Record<string, unknown> };
  };

  it("describes every operation of the table, and serializes as JSON", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const op of operationList) expect(doc.paths[documentPath(op)]?.[op.method.toLowerCase()]?.operationId, op.name).toContain(op.name);
    expect(() => JSON.stringify(doc)).not.toThrow();
  });

  it("renders ids as int64 integers and takes access_token in the query (§5.1.1)", () => {
    const get = doc.paths["/v1/customers/{id}"]!.get!;
    expect(get.parameters.find((p) => p.name === "id")).toMatchObject({ in: "path", schema: { type: "integer", format: "int64" } });
    expect(get.security).toEqual([{ accessToken: [] }]);
    expect(doc.components.securitySchemes.accessToken).toMatchObject({ type: "apiKey", in: "query", name: "access_token" });
    expect(doc.paths["/v1/users/current"]!.get!.security).toEqual([{ bearerToken: [] }]);
    expect(JSON.stringify(doc.paths["/v1/listMembers"]!.post!.requestBody)).toContain('"format":"int64"');
  });

  it("describes both token grants on the one token endpoint (§4.7)", () => {
    expect(JSON.stringify(doc.paths["/oauth2/token"]!.post!.requestBody)).toMatch(/authorization_code.*refresh_token/);
  });

  it("operationIds are unique and URL-safe (Redocly: operation-operationId-url-safe)", () => {
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((e) => e.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9\-._~]+$/);
  });

  it("every operation documents its 4xx answers with the §7 shapes; refs resolve (Redocly: operation-4xx-response, no-unresolved-refs)", () => {
    const schemas = (doc.components as unknown as { schemas: Record<string, unknown> }).schemas;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, entry] of Object.entries(methods)) {
        const codes = Object.keys((entry as unknown as { responses: Record<string, unknown> }).responses);
        expect(codes.some((c) => /^4\d\d$/.test(c)), `${method} ${path}`).toBe(true);
      }
    }
    for (const [, name] of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)) expect(schemas, name).toHaveProperty(name!);
    const get = doc.paths["/v1/customers/{id}"]!.get! as unknown as { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
    expect(JSON.stringify(get.responses["200"])).toContain("AuthLayerError");
    expect(get.responses["500"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/AuthLayerError" });
    const create = doc.paths["/v1/customerandidentities"]!.post! as unknown as { responses: Record<string, { content?: Record<string, unknown> }> };
    expect(Object.keys(create.responses["400"]!.content!)).toEqual(["application/json", "text/plain"]);
    expect(JSON.stringify(schemas.ErrorObject)).toContain("C0002");
  });
});
