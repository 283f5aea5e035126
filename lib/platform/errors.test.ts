import { describe, expect, it } from "vitest";
import { isRefusal, normalizeFieldErrors, PlatformError, readPlatformResponse, redact } from "./errors";

const json = new Headers({ "content-type": "application/json" });
const text = new Headers({ "content-type": "text/plain" });

function failure(status: number, body: string, headers: Headers = json): PlatformError {
  const result = readPlatformResponse(status, headers, body);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe("readPlatformResponse: every error shape becomes one PlatformError (§7)", () => {
  it("reads an HTTP 200 error object with array fieldErrors {fieldName, message} (§7.1, 400001)", () => {
    const e = failure(200, '{"error":{"code":"400001","message":"invalid","fieldErrors":[{"fieldName":"customer.email","message":"bad email"}]}}');
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({ kind: "validation", code: "400001", message: "invalid", httpStatus: 200 });
    expect(e.fieldErrors).toEqual([{ field: "customer.email", message: "bad email" }]);
  });

  it("reads a numeric code and fieldErrors as an object from field to message (§7.1, 401011)", () => {
    const e = failure(200, '{"error":{"code":401011,"message":"invalid","fieldErrors":{"mobile":"bad mobile","email":"bad email"}}}');
    expect(e).toMatchObject({ kind: "validation", code: "401011" });
    expect(e.fieldErrors).toEqual([
      { field: "mobile", message: "bad mobile" },
      { field: "email", message: "bad email" },
    ]);
  });

  it("reads fieldErrors items that are objects from field name to message (§7.1, plain create)", () => {
    const e = failure(200, '{"error":{"code":"401011","message":"x","fieldErrors":[{"mobile":"bad"},{"birthday":"bad date"}]}}');
    expect(e.fieldErrors).toEqual([
      { field: "mobile", message: "bad" },
      { field: "birthday", message: "bad date" },
    ]);
  });

  it("maps the not-found codes of §7.2 to not_found (409200 md5, 400005 unbind)", () => {
    expect(failure(200, '{"error":{"code":"409200","message":"Not found"}}').kind).toBe("not_found");
    expect(failure(200, '{"error":{"code":"400005","message":"openid and unionid not found"}}').kind).toBe("not_found");
  });

  it("treats an unknown error object as a rejection", () => {
    expect(failure(200, '{"error":{"code":"500123","message":"no"}}')).toMatchObject({ kind: "rejected", code: "500123" });
  });

  it("reads plain-text HTTP 400 bodies as validation errors with the text as message (§7.3)", () => {
    for (const body of ["No customer field found", "No customerIdentities field found", "Request data need at least one field"]) {
      expect(failure(400, body, text)).toMatchObject({ kind: "validation", code: "400", message: body, httpStatus: 400 });
    }
  });

  it("reads {error_code, error_description} on HTTP 200 (§7.4 users/current)", () => {
    const e = failure(200, '{"error_code":"invalid_token","error_description":"access_token is invalid"}');
    expect(e).toMatchObject({ kind: "auth", code: "invalid_token", message: "access_token is invalid", tokenExpired: false });
  });

  it("reads the sandbox's HTTP 401 for bad and expired tokens, flagging expiry", () => {
    expect(failure(401, '{"error_code":"invalid_token","error_description":"access_token is invalid"}')).toMatchObject({ kind: "auth", tokenExpired: false });
    expect(failure(401, '{"error_code":"expired_token","error_description":"access_token has expired"}')).toMatchObject({
      kind: "auth",
      code: "expired_token",
      tokenExpired: true,
      httpStatus: 401,
    });
  });

  it("reads a token-endpoint grant failure as auth, whatever its status", () => {
    expect(failure(400, '{"error":"invalid_grant","error_description":"refresh token is invalid"}')).toMatchObject({ kind: "auth", code: "invalid_grant" });
    expect(failure(200, '{"error":"invalid_grant"}')).toMatchObject({ kind: "auth", code: "invalid_grant", httpStatus: 200 });
  });

  it("maps statuses: 404, 429 with Retry-After seconds, 5xx", () => {
    expect(failure(404, "").kind).toBe("not_found");
    const limited = failure(429, '{"error":{"code":"429","message":"slow down"}}', new Headers({ "retry-after": "3" }));
    expect(limited).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 3 });
    expect(failure(503, '{"error":{"code":"503","message":"fault injected by the sandbox"}}')).toMatchObject({ kind: "upstream", code: "503" });
    expect(failure(502, "<html>Bad gateway</html>", text)).toMatchObject({ kind: "upstream", httpStatus: 502 });
    expect(failure(302, "", text)).toMatchObject({ kind: "upstream", httpStatus: 302 });
  });

  it("refuses a 2xx body that is not JSON", () => {
    expect(failure(200, "<html>", text)).toMatchObject({ kind: "upstream", code: "invalid_response" });
  });

  it("accepts success bodies, 204 and the store-deletion success marker (§7.5)", () => {
    expect(readPlatformResponse(200, json, '{"rows":[{"id":9007199254740993}]}')).toEqual({
      ok: true,
      value: { rows: [{ id: "9007199254740993" }] },
      json: '{"rows":[{"id":"9007199254740993"}]}',
    });
    expect(readPlatformResponse(200, json, '{"rows":[{"id":5}]}', new Set(["id"]))).toMatchObject({ value: { rows: [{ id: "5" }] } });
    expect(readPlatformResponse(204, undefined, "")).toEqual({ ok: true, value: null, json: null });
    expect(readPlatformResponse(200, json, '{"error":{"message":"success"}}').ok).toBe(true);
    expect(readPlatformResponse(200, text, "42")).toMatchObject({ ok: true, value: 42 });
    expect(readPlatformResponse(200, json, '{"shop":{"id":1}}').ok).toBe(true);
    expect(readPlatformResponse(200, json, '{"shop":{"id":1},"error":null}').ok).toBe(true);
  });

  it("reads error_code 0 beside an access token as a success marker, a string code as a refusal (the real platform's token answers)", () => {
    expect(readPlatformResponse(200, json, '{"error_code":0,"access_token":"a","expires_in":7200}').ok).toBe(true);
    expect(readPlatformResponse(200, json, '{"error_code":"0","access_token":"a"}').ok).toBe(true);
    expect(failure(200, '{"error_code":"40004","error_description":"the params is illegal"}', json)).toMatchObject({ code: "40004" });
    expect(readPlatformResponse(200, json, '{"error_code":40004}').ok).toBe(false);
  });
});

describe("readPlatformResponse: the proxy's relay path (bytes in, bytes out)", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const relay = (status: number, text: string) => readPlatformResponse(status, json, bytes(text), new Set(["id"]), { relayOnly: true });

  it("relays a well-nested 2xx body with ids quoted, without parsing it", () => {
    const result = relay(200, ' {"rows":[{"id":5,"name":"张三"}]}');
    expect(result).toMatchObject({ ok: true, value: undefined });
    expect(new TextDecoder().decode((result as { json: Uint8Array }).json)).toBe(' {"rows":[{"id":"5","name":"张三"}]}');
  });

  it("still finds error objects, truncated bodies and non-JSON in a 2xx", () => {
    expect(relay(200, '{"error":{"code":"409200","message":"Not found"}}')).toMatchObject({ ok: false, error: { kind: "not_found" } });
    expect(relay(200, '{"error_code":"invalid_token","error_description":"x"}')).toMatchObject({ ok: false, error: { kind: "auth" } });
    expect(relay(200, '{"rows":[{"id":5}')).toMatchObject({ ok: false, error: { code: "invalid_response" } });
    expect(relay(200, "<html>")).toMatchObject({ ok: false, error: { code: "invalid_response" } });
    expect(relay(200, "42")).toMatchObject({ ok: true, value: 42 });
  });
});

describe("isRefusal: refused (asking again will not help) or unavailable (try again later)", () => {
  it("refused: HTTP 4xx and error answers; unavailable: network, timeout, 5xx and answers not understood", () => {
    for (const [status, body] of [[400, '{"error":"invalid_grant"}'], [401, '{"error_code":"invalid_token"}'], [200, '{"error":{"code":"400","message":"no"}}'], [429, "{}"], [404, ""]] as const) {
      expect(isRefusal(failure(status, body)), `${status} ${body}`).toBe(true);
    }
    for (const [status, body] of [[500, "{}"], [503, '{"error":"down"}'], [302, ""], [200, "<html>"]] as const) {
      expect(isRefusal(failure(status, body)), `${status} ${body}`).toBe(false);
    }
    expect(isRefusal(PlatformError.network(new Error("ECONNREFUSED")))).toBe(false);
    expect(isRefusal(PlatformError.timeout(10))).toBe(false);
    expect(isRefusal(new Error("other"))).toBe(false);
  });
});

describe("normalizeFieldErrors", () => {
  it("handles nothing, strings and unexpected shapes without throwing", () => {
    expect(normalizeFieldErrors(undefined)).toEqual([]);
    expect(normalizeFieldErrors(["just a message"])).toEqual([{ field: "", message: "just a message" }]);
    expect(normalizeFieldErrors([{ field: "name", message: "required" }])).toEqual([{ field: "name", message: "required" }]);
    expect(normalizeFieldErrors(7)).toEqual([]);
  });
});

describe("redact", () => {
  it("removes tokens, codes and hmac values from messages", () => {
    const out = redact("GET /v1/x?access_token=at_abcdefghijklmnopqrstuvwx&code=123&hmac=ff refresh rt_abcdefghijklmnopqrstuvwxyz");
    expect(out).not.toMatch(/at_abcdefghij|rt_abcdefghij|code=123|hmac=ff/);
  });
});
