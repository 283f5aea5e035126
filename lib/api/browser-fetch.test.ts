import { describe, expect, it, vi } from "vitest";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
import { OPEN_APP_ID_HEADER } from "@/lib/auth/client-session";
import { createBrowserFetch, MUTATION_HEADER } from "./browser-fetch";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

function setup(response: Response | (() => Promise<Response>), token?: string) {
  const storage = memoryStorage();
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchMock = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return typeof response === "function" ? response() : response.clone();
  });
  const onReauth = vi.fn();
  const call = createBrowserFetch({
    openAppId: () => "oa-alpha",
    fetch: fetchMock as typeof fetch,
    storage: () => storage,
    sessionToken: (openAppId) => (openAppId === "oa-alpha" ? token : undefined),
    now: () => 1_000,
    onReauth,
  });
  return { call, calls, onReauth };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("the browser fetch wrapper", () => {
  it("sends X-Open-App-Id and the app's CSRF header on every call, reads included (session-bearing GETs require it)", async () => {
    const { call, calls } = setup(json({ rows: [] }));
    await call("customers.list", { query: { rows: 20 } });
    const get = new Headers(calls[0]!.init.headers);
    expect(calls[0]!.url).toBe("/api/platform/v1/customers?rows=20");
    expect(calls[0]!.init.method).toBe("GET");
    expect(get.get(OPEN_APP_ID_HEADER)).toBe("oa-alpha");
    expect(get.get(MUTATION_HEADER)).toBe("1");
    expect(get.has("Authorization")).toBe(false);

    await call("customers.delete", { params: { id: "9007199254740993" } });
    const del = new Headers(calls[1]!.init.headers);
    expect(calls[1]!.init.method).toBe("DELETE");
    expect(del.get(MUTATION_HEADER)).toBe("1");
  });

  it("sends a JSON body with ids as strings", async () => {
    const { call, calls } = setup(json({ customerId: "9007199254740993", identityType: "email", identityValue: "a@b.c" }));
    await call("identities.add", { body: { customerId: "9007199254740993", identityType: "email", identityValue: "a@b.c" } });
    expect(calls[0]!.init.body).toBe('{"customerId":"9007199254740993","identityType":"email","identityValue":"a@b.c"}');
    expect(new Headers(calls[0]!.init.headers).get("Content-Type")).toBe("application/json");
  });

  it("adds the environment's fallback session token as a bearer when there is one", async () => {
    const a = setup(json({ rows: [] }), "sealed-token");
    await a.call("customers.list", {});
    expect(new Headers(a.calls[0]!.init.headers).get("Authorization")).toBe("Bearer sealed-token");

    const b = setup(json({ rows: [] }));
    await b.call("customers.list", {});
    expect(new Headers(b.calls[0]!.init.headers).has("Authorization")).toBe(false);
  });

  it("follows a reauth_required 401 and rejects with ReauthRequiredError", async () => {
    const { call, onReauth } = setup(json({ error: { code: "reauth_required", message: "Sign in", redirect: "/api/auth/start?openAppId=oa-alpha" } }, 401));
    const error = await call("customers.list", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReauthRequiredError);
    expect((error as ReauthRequiredError).redirect).toBe("/api/auth/start?openAppId=oa-alpha");
    expect(onReauth).toHaveBeenCalledWith("/api/auth/start?openAppId=oa-alpha");
  });

  it("does not treat other 401s as reauth", async () => {
    const { call, onReauth } = setup(json({ error: { code: "unauthorized", message: "no" } }, 401));
    const error = (await call("customers.list", {}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ReauthRequiredError);
    expect(onReauth).not.toHaveBeenCalled();
  });

  it("normalizes errors with field errors and request id", async () => {
    const { call } = setup(
      json({ error: { code: "400001", message: "Invalid", fieldErrors: [{ field: "email", message: "bad email" }, { fieldName: "mobile", message: "bad" }], requestId: "r-1" } }, 422),
    );
    const error = (await call("customers.list", {}).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(422);
    expect(error.code).toBe("400001");
    expect(error.message).toBe("Invalid");
    expect(error.requestId).toBe("r-1");
    expect(error.fieldErrors).toEqual([{ field: "email", message: "bad email" }, { field: "mobile", message: "bad" }]);
  });

  it("turns a non-JSON failure and a network failure into ApiErrors", async () => {
    const a = setup(new Response("Bad gateway", { status: 502, statusText: "Bad Gateway" }));
    const e1 = (await a.call("customers.list", {}).catch((e: unknown) => e)) as ApiError;
    expect([e1.status, e1.code, e1.transient]).toEqual([502, "http_502", true]);

    const b = setup(() => Promise.reject(new TypeError("Failed to fetch")));
    const e2 = (await b.call("customers.list", {}).catch((e: unknown) => e)) as ApiError;
    expect([e2.status, e2.code, e2.transient]).toEqual([0, "network_error", true]);
  });

  it("returns undefined for 204 and the parsed JSON otherwise", async () => {
    const a = setup(new Response(null, { status: 204 }));
    expect(await a.call("customers.delete", { params: { id: "1" } })).toBeUndefined();
    const b = setup(json(42));
    expect(await b.call("customers.count", {})).toBe(42);
  });

  it("refuses operations that are not exposed to the browser", async () => {
    const { call, calls } = setup(json({}));
    await expect(call("auth.refresh" as "customers.list", {})).rejects.toThrow(/not callable from the browser/);
    expect(calls).toHaveLength(0);
  });
});
