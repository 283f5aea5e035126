import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { operationList } from "./operations";

describe("OpenAPI document from the operation table", () => {
  const doc = buildOpenApiDocument({ serverUrl: "http://127.0.0.1:4000" }) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>; requestBody?: unknown }>>;
  };

  it("describes every resource and auth endpoint of the table, and serializes as JSON", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const op of operationList.filter((o) => o.base !== "extension" && !o.redirect)) {
      expect(doc.paths[op.path]?.[op.method.toLowerCase()], op.name).toBeDefined();
    }
    expect(() => JSON.stringify(doc)).not.toThrow();
  });

  it("renders ids as int64 integers and takes access_token as a query parameter (§5.1.1)", () => {
    const get = doc.paths["/v1/customers/{id}"]!.get!;
    expect(get.parameters.find((p) => p.name === "id")).toMatchObject({ in: "path", schema: { type: "integer", format: "int64" } });
    expect(get.parameters.find((p) => p.name === "access_token")).toMatchObject({ in: "query" });
    expect(JSON.stringify(doc.paths["/v1/listMembers"]!.post!.requestBody)).toContain('"format":"int64"');
  });

  it("describes both token grants on the one token endpoint (§4.7)", () => {
    expect(JSON.stringify(doc.paths["/oauth2/token"]!.post!.requestBody)).toMatch(/authorization_code.*refresh_token/);
  });
});
