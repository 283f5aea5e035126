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
});
