import { describe, expect, it } from "vitest";
import { callProxy, platformQuery, ProxyError } from "./browser";

type Recorded = { url: string; init: RequestInit };

function fakeFetch(status: number, body: string, recorded: Recorded[]): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    recorded.push({ url, init });
    return new Response(status === 204 ? null : body, { status, headers: { "content-type": "application/json", "x-request-id": "rid-1" } });
  }) as typeof fetch;
}

describe("callProxy (the console's client of the proxy)", () => {
  it("builds the proxy URL from the table and sends the CSRF header only on mutations", async () => {
    const recorded: Recorded[] = [];
    await callProxy("customers.list", { query: { rows: 50, hasEmail: true } }, { fetch: fakeFetch(200, '{"rows":[]}', recorded), openAppId: "alpha" });
    await callProxy("lists.create", { body: { name: "VIP" } }, { fetch: fakeFetch(200, '{"id":"1","name":"VIP"}', recorded) });
    await callProxy("customers.delete", { params: { id: "9007199254740993" } }, { fetch: fakeFetch(204, "", recorded) });
    expect(recorded.map((r) => `${r.init.method} ${r.url}`)).toEqual([
      "GET /api/platform/v1/customers?rows=50&hasEmail=true",
      "POST /api/platform/v1/lists",
      "DELETE /api/platform/v1/customers/9007199254740993",
    ]);
    const headers = recorded.map((r) => r.init.headers as Record<string, string>);
    expect(headers[0]!["X-Engage-Request"]).toBeUndefined();
    expect(headers[0]!["X-Open-App-Id"]).toBe("alpha");
    expect(headers[1]!["X-Engage-Request"]).toBe("1");
    expect(recorded[1]!.init.body).toBe('{"name":"VIP"}');
  });

  it("throws a ProxyError carrying code, field errors, request id and the reauth redirect", async () => {
    const body = '{"error":{"code":"invalid_input","message":"the request is not valid","fieldErrors":[{"field":"name","message":"is required"}],"requestId":"rid-9"}}';
    const error = await callProxy("lists.create", { body: { name: "" } }, { fetch: fakeFetch(422, body, []) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProxyError);
    expect(error).toMatchObject({ status: 422, code: "invalid_input", fieldErrors: [{ field: "name", message: "is required" }], requestId: "rid-9" });
    const reauth = await callProxy("customers.list", {}, {
      fetch: fakeFetch(401, '{"error":{"code":"reauth_required","message":"x","redirect":"/api/auth/start?openAppId=a"}}', []),
    }).catch((e: unknown) => e as ProxyError);
    expect(reauth).toMatchObject({ reauthRequired: true, redirect: "/api/auth/start?openAppId=a" });
  });

  it("gives query options keyed by the table", () => {
    const options = platformQuery("customers.get", { params: { id: "5" } });
    expect(options.queryKey).toEqual(["platform", "customers", "customers.get", { params: { id: "5" } }]);
  });
});
