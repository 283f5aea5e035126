import { describe, expect, it } from "vitest";
import { RECORDED } from "@/lib/platform/testing/recorded-answers";
import { formatUtc as iso } from "./clock";
import { loadSandboxConfig } from "./config";
import { startApiKitForFile } from "./api/testkit";

/**
 * The profiles (README "Profiles"): beta answers as the real platform does (docs/decisions/real-platform-answers.md), alpha as the
 * spec says. The recorded answers are sent byte for byte.
 */
const kit = await startApiKitForFile({ SANDBOX_BETA_PROFILE: "observed" });
const { alpha, beta } = kit.sandbox.urls as { alpha: string; beta: string };
const client = { client_id: "engage-console", client_secret: "sandbox-secret" };

async function issue(environment: "alpha" | "beta"): Promise<{ access_token: string; refresh_token: string }> {
  const res = await fetch(`${kit.sandbox.urls[environment]}/__sandbox/tokens`, { method: "POST", body: JSON.stringify({ environment }) });
  return (await res.json()) as { access_token: string; refresh_token: string };
}
const grant = (origin: string, form: Record<string, string>) =>
  fetch(`${origin}/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
const beta$ = { environment: "beta" as const };

describe("profiles: alpha = spec, beta = observed; SANDBOX_*_PROFILE switch them", () => {
  it("defaults and overrides", async () => {
    expect(loadSandboxConfig({}).environments.map((e) => e.profile)).toEqual(["spec", "observed"]);
    expect(loadSandboxConfig({ SANDBOX_ALPHA_PROFILE: "observed", SANDBOX_BETA_PROFILE: "spec" }).environments.map((e) => e.profile)).toEqual(["observed", "spec"]);
    expect(() => loadSandboxConfig({ SANDBOX_BETA_PROFILE: "real" })).toThrow(/SANDBOX_BETA_PROFILE/);
    expect(await (await fetch(`${beta}/health`)).json()).toMatchObject({ profile: "observed" });
    expect(await (await fetch(`${alpha}/health`)).json()).toMatchObject({ profile: "spec" });
  });
});

describe("observed: the real platform's answers (beta)", () => {
  it("fact 1: a missing customer is HTTP 500 40201 on GET, PUT and DELETE (alpha: 404)", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await kit.call(method, "/v1/customers/123456", { ...beta$, body: method === "PUT" ? { name: "x" } : undefined });
      expect({ status: res.status, text: res.text, type: res.contentType }).toEqual({ status: 500, text: RECORDED.missingById.body, type: RECORDED.missingById.contentType });
    }
    expect((await kit.call("GET", "/v1/customers/123456")).status).toBe(404);
  });

  it("fact 2: a bad token, or a bearer header alone, is HTTP 200 with an auth-layer body (alpha: 401)", async () => {
    const bad = await kit.call("GET", "/v1/customers", { ...beta$, token: "at_nonsense" });
    expect({ status: bad.status, text: bad.text }).toEqual({ status: 200, text: RECORDED.badToken.body });
    const { access_token } = await issue("beta");
    const bearer = await fetch(`${beta}/v1/users/current`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await bearer.text()).toBe(RECORDED.badToken.body);
    expect((await kit.call("GET", "/v1/customers", { token: "at_nonsense" })).status).toBe(401);
  });

  it("fact 9: a new token ends the earlier one of the same app and tenant (alpha keeps both)", async () => {
    const first = await issue("beta");
    const second = await issue("beta");
    expect((await kit.call("GET", "/v1/users/current", { ...beta$, token: first.access_token })).text).toBe(RECORDED.badToken.body);
    expect((await kit.call("GET", "/v1/users/current", { ...beta$, token: second.access_token })).json).toMatchObject({ tid: "80000000002" });
    const a1 = await issue("alpha");
    await issue("alpha");
    expect((await kit.call("GET", "/v1/users/current", { token: a1.access_token })).status).toBe(200);
  });

  it("fact 3: token answers carry error_code 0; a refused grant is HTTP 200 with a string code", async () => {
    const { refresh_token } = await issue("beta");
    const ok = await grant(beta, { ...client, grant_type: "refresh_token", refresh_token });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as Record<string, unknown>;
    expect(Object.keys(body)[0]).toBe("error_code");
    expect(body).toMatchObject({ error_code: 0, access_token: expect.any(String), expires_in: 7200 });
    const refused = await grant(beta, { ...client, client_secret: "wrong", grant_type: "refresh_token", refresh_token: String(body.refresh_token) });
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({ error_code: "40004" });
    expect((await grant(alpha, { ...client, client_secret: "wrong", grant_type: "refresh_token", refresh_token: "x" })).status).toBe(401);
  });

  it("fact 4: users/current is {email, name, tname, tid, loginName}", async () => {
    const res = await kit.call("GET", "/v1/users/current", { ...beta$, token: await kit.newToken("beta") });
    expect(res.json).toEqual({ email: "admin@beta.test", name: "Bob Admin 李博", tname: "Beta Foods 贝塔食品", tid: "80000000002", loginName: "admin@beta.test" });
  });

  it("facts 5, 6, 10: 201 on event and order creation, 204 as text/html, {records, rows, total}, false flags, extra fields, idStr, money with six decimals", async () => {
    await kit.newToken("beta");
    const created = await kit.call("POST", "/v1/customers", { ...beta$, body: { name: "Lin" } });
    const id = created.json.id as bigint;
    expect(created.json).toMatchObject({ idStr: String(id), mobileVerified: false, qq: null, acceptEmail: false, externalId: null });
    expect(created.contentType).toBe("application/json;charset=UTF-8");
    const event = await kit.call("POST", "/v1/customerevents", { ...beta$, body: { customerId: id, event: "open_page" } });
    expect(event.status).toBe(201);
    expect(event.json).toMatchObject({ customerIdStr: String(id) });
    const order = await kit.call("POST", "/v1/deals", { ...beta$, body: { customerId: id, orderNo: `O${Date.now()}`, amountPaid: 59, amountTotal: 59, dateOrder: iso(Date.now() - 60_000), lines: [{ lineId: "1", productName: "杯", qty: 1, priceUnit: 59 }] } });
    expect(order.status).toBe(201);
    expect(order.text).toContain('"amountPaid":59.000000');
    expect(order.text).toContain('"priceUnit":59.000000');
    const list = await kit.call("GET", "/v1/customers", { ...beta$, query: { rows: 1 } });
    expect(Object.keys(list.json)).toEqual(["records", "rows", "total"]);
    expect(list.json.records).toBeGreaterThanOrEqual(1);
    expect(list.json.total).toBe(list.json.records);
    const deleted = await kit.call("DELETE", `/v1/customers/${id}`, beta$);
    expect({ status: deleted.status, type: deleted.contentType, text: deleted.text }).toEqual({ status: 204, type: "text/html;charset=utf-8", text: "" });
  });

  it("fact 7: create-with-identities field errors are C0002 with JSON text; the plain create's are 400001 {fieldName, message} items", async () => {
    const withIds = await kit.call("POST", "/v1/customerandidentities", { ...beta$, body: { customer: { email: "not-an-email" }, customerIdentities: [{ identityType: "email", identityValue: "x@y.test" }] } });
    expect(withIds.json.error.code).toBe("C0002");
    expect(JSON.parse(withIds.json.error.message)).toEqual([{ field: "email", message: "email is not a valid address" }]);
    const plain = await kit.call("POST", "/v1/customers", { ...beta$, body: { email: "not-an-email" } });
    expect(plain.json.error).toMatchObject({ code: "400001", fieldErrors: [{ fieldName: "email", message: "email is not a valid address" }] });
  });

  it("fact 8: a §7.3 text is a JSON string literal (alpha: text/plain)", async () => {
    const res = await kit.call("POST", "/v1/customerandidentities", { ...beta$, body: { customerIdentities: [] } });
    expect({ status: res.status, text: res.text, type: res.contentType }).toEqual({ status: 400, text: RECORDED.jsonStringText.body, type: RECORDED.jsonStringText.contentType });
    const spec = await kit.call("POST", "/v1/customerandidentities", { body: { customerIdentities: [] } });
    expect({ text: spec.text, type: spec.contentType }).toEqual({ text: "No customer field found", type: "text/plain;charset=UTF-8" });
  });

  it("seeded customers of beta hold extra fields; alpha's do not", async () => {
    await fetch(`${alpha}/__sandbox/seed`, { method: "POST", body: JSON.stringify({ customers: 5 }) });
    const b = await kit.call("GET", "/v1/customers", { ...beta$, token: await kit.newToken("beta"), query: { rows: 5 } });
    expect(b.json.rows.some((r: Record<string, unknown>) => typeof r.externalId === "string" && typeof r.membershipLevel === "string")).toBe(true);
    const a = await kit.call("GET", "/v1/customers", { query: { rows: 5 } });
    expect(a.json.rows[0]).not.toHaveProperty("externalId");
    expect(a.json).toEqual({ rows: expect.any(Array) });
  });
});

describe("spec (both profiles): §2 empty fields are null", () => {
  it("an empty custom attribute is returned as null", async () => {
    const res = await kit.call("POST", "/v1/customers", { body: { name: "Attr", attr: { attr1: "", attr2: "x" } } });
    expect(res.json.attr).toEqual({ attr1: null, attr2: "x" });
    expect((await kit.call("GET", `/v1/customers/${res.json.id}`)).json.attr).toEqual({ attr1: null, attr2: "x" });
  });
});
