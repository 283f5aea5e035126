import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operationList, operations, type Operation } from "./operations";
import { id, idFieldsOf, idListParam, toWire } from "./schema-helpers";
import { stringifyJson } from "./json";

describe("the operation table (§4.1–§4.8)", () => {
  it("lists every endpoint of the spec once", () => {
    const endpoints = operationList.map((op) => `${op.base} ${op.method} ${op.path}`);
    // 14 customers/identities, 9 deals, 5 events, 9 lists, 11 tags, 1 media, 5 auth, 5 stores
    expect(operationList).toHaveLength(59);
    // The two token grants share one endpoint (§4.7); every other pair is distinct.
    expect(new Set(endpoints).size).toBe(endpoints.length - 1);
    for (const path of [
      "/v1/customerandidentities", "/v1/customers/count", "/v1/customerService/mergeCustomerById", "/v1/customers/messenger/unbinding",
      "/v1/dealService/getDealByOrderNo", "/v1/collector/batchPushEvents", "/v1/listservice/memberCount", "/v1/listMembersBatch",
      "/v1/tags/{fromId}/mergeto/{toId}", "/v1/externalTags", "/v1/third_party_data/importData", "/v1/storesGroups/{groupId}",
      "/oauth2/token", "/v1/users/current", "/cloudinfo",
    ]) {
      expect(endpoints.some((e) => e.endsWith(` ${path}`)), path).toBe(true);
    }
  });

  it("gives every operation its name, a § citation and path params matching its template", () => {
    for (const [name, op] of Object.entries(operations as Record<string, Operation>)) {
      expect(op.name).toBe(name);
      expect(op.summary).toMatch(/§\d/);
      const templated = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = Object.keys(op.params?.shape ?? {}).sort();
      expect(declared, name).toEqual(templated);
    }
  });

  it("marks only reads idempotent, and exposes only resource-API operations to the browser", () => {
    for (const op of operationList) {
      if (op.method !== "GET") expect(op.idempotent, op.name).toBe(false);
      if (op.browser) expect(op.base, op.name).toBe("api");
      if (op.method !== "GET" && op.browser) expect(op.invalidates?.length ?? 0, op.name).toBeGreaterThanOrEqual(op.name === "media.importData" ? 0 : 1);
    }
    expect(operations["extension.cloudinfo"].idempotent).toBe(false); // one-time token (§5.4.1)
    expect(operations["auth.refresh"].browser).toBe(false);
  });

  it("converts every schema to JSON Schema (the sandbox's /openapi.json)", () => {
    for (const op of operationList) {
      for (const part of [op.params, op.query, op.body]) {
        if (part) expect(() => z.toJSONSchema(part, { io: "input" }), op.name).not.toThrow();
      }
      expect(() => z.toJSONSchema(op.output, { io: "input" }), op.name).not.toThrow();
    }
  });

  it("renders ids as integer/int64 in JSON Schema", () => {
    const json = z.toJSONSchema(operations["customers.get"].params!, { io: "input" }) as unknown as { properties: { id: unknown } };
    expect(json.properties.id).toMatchObject({ type: "integer", format: "int64" });
    const out = z.toJSONSchema(operations["customers.get"].output, { io: "output" }) as unknown as { properties: { id: unknown } };
    expect(out.properties.id).toMatchObject({ type: "integer", format: "int64" });
  });
});

describe("§4.7 answers", () => {
  it("a token answer without expires_in lasts 7200 s (§8)", () => {
    const tokens = operations["auth.refresh"].output;
    expect(tokens.parse({ access_token: "a", refresh_token: "r" }).expires_in).toBe(7200);
    expect(tokens.parse({ access_token: "a", expires_in: "3600" }).expires_in).toBe(3600);
    expect(tokens.safeParse({ refresh_token: "r" }).success).toBe(false);
  });

  it("users/current is read at the top level or under data or user", () => {
    const user = operations["users.current"].output;
    expect(user.parse({ tenantId: 7, name: "a" })).toEqual({ tenantId: "7", name: "a" });
    expect(user.parse({ data: { tenantId: 9007199254740993n, name: "b" } })).toEqual({ tenantId: "9007199254740993", name: "b" });
    expect(user.parse({ user: { tenantId: "8" }, code: 0 })).toEqual({ tenantId: "8" });
    expect(user.safeParse({ data: { name: "no tenant" } }).success).toBe(false);
  });
});

describe("ids (§2: 64-bit Long)", () => {
  it("accepts bigint, safe number and digit strings, and yields the decimal string", () => {
    expect(id.parse(9223372036854775807n)).toBe("9223372036854775807");
    expect(id.parse(42)).toBe("42");
    expect(id.parse("9007199254740993")).toBe("9007199254740993");
  });

  it("rejects what is not a 64-bit id", () => {
    for (const bad of ["", "abc", "-1", "1.5", "9223372036854775808", 1.5, 2 ** 60, null, true, {}]) {
      expect(id.safeParse(bad).success, String(bad)).toBe(false);
    }
  });

  it("joins and checks id lists", () => {
    expect(idListParam.parse(["1", 9007199254740993n])).toBe("1,9007199254740993");
    expect(idListParam.safeParse("1,x").success).toBe(false);
  });

  it("finds the id fields of a body schema and writes them as JSON integers", () => {
    const body = operations["listMembers.addBatch"].body;
    expect([...idFieldsOf(body)].sort()).toEqual(["customerId", "listId"]);
    const parsed = body.parse({ items: [{ customerId: "9007199254740993", listId: 12 }] });
    expect(stringifyJson(toWire(parsed, idFieldsOf(body)))).toBe('{"items":[{"customerId":9007199254740993,"listId":12}]}');
  });

  it("leaves non-id strings alone on the wire", () => {
    const body = operations["deals.create"].body;
    const keys = idFieldsOf(body);
    expect(keys.has("customerId")).toBe(true);
    const wire = toWire({ customerId: "9007199254740993", orderNo: "12345", lines: [{ lineId: "7" }] }, keys);
    expect(stringifyJson(wire)).toBe('{"customerId":9007199254740993,"orderNo":"12345","lines":[{"lineId":"7"}]}');
  });
});

describe("input schemas", () => {
  it("accept query strings as they arrive in a URL", () => {
    const q = operations["customers.list"].query.parse({ rows: "50", page: "2", hasEmail: "true", idFrom: "9007199254740993", sord: "desc" });
    expect(q).toEqual({ rows: 50, page: 2, hasEmail: true, idFrom: "9007199254740993", sord: "desc" });
  });

  it("are idempotent: parsing a parsed value gives it back (the client re-validates typed input)", () => {
    const body = operations["deals.create"].body;
    const once = body.parse({ customerId: 9007199254740993n, orderNo: "A1", amountPaid: "12.5", dateOrder: "2026-01-01T00:00:00Z", lines: [{ lineId: "1", productName: "p", qty: "2" }] });
    expect(body.parse(once)).toEqual(once);
  });

  it("refuse wrong types and unknown fields with field paths", () => {
    const result = operations["customers.update"].body.safeParse({ gender: 3, homeAddress: "x".repeat(513), nmae: "typo" });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join(".") || i.message);
    expect(paths).toEqual(expect.arrayContaining(["gender", "homeAddress"]));
    expect(result.error!.issues.some((i) => i.code === "unrecognized_keys")).toBe(true);
  });

  it("enforce §8 limits (batch of at most 100 events, tag name ≤ 32)", () => {
    const ev = { identityType: "email", identityValue: "a@b.c", event: "c_x" };
    expect(operations["events.batchPush"].body.safeParse({ events: Array(101).fill(ev) }).success).toBe(false);
    expect(operations["events.batchPush"].body.safeParse({ events: Array(100).fill(ev) }).success).toBe(true);
    expect(operations["tags.create"].body.safeParse({ name: "x".repeat(33), dimension: "basic" }).success).toBe(false);
  });

  it("count lengths in code points, as the platform does (§8)", () => {
    // "𠮷" is one character and two UTF-16 units.
    expect(operations["tags.create"].body.safeParse({ name: "𠮷".repeat(32), dimension: "basic" }).success).toBe(true);
    const tooLong = operations["tags.create"].body.safeParse({ name: "𠮷".repeat(33), dimension: "basic" });
    expect(tooLong.error?.issues[0]).toMatchObject({ path: ["name"], message: "at most 32 characters" });
    expect(z.toJSONSchema(operations["tags.create"].body, { io: "input" })).toMatchObject({ properties: { name: { maxLength: 32 } } });
  });
});
