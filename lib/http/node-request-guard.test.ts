import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installRequestGuard } from "./node-request-guard";

let server: http.Server;
let port: number;
let reached = 0;

beforeAll(async () => {
  installRequestGuard();
  installRequestGuard(); // idempotent
  server = http.createServer((req, res) => {
    reached += 1;
    // What Next does with every request first: a WHATWG Request (throws for TRACE) and decoded segments.
    new Request(`http://x${req.url}`, { method: req.method });
    decodeURIComponent(req.url!.split("?")[0]!);
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(method: string, path: string): Promise<{ status: number; allow?: string; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, allow: res.headers.allow, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the request guard in front of the Node server (docs/decisions/sign-in-hardening.md)", () => {
  it("answers TRACE, CONNECT-like and unknown methods with 405 before the app runs", async () => {
    const before = reached;
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "PURGE"]) {
      const res = await send(method, "/customers");
      expect(res.status, method).toBe(405);
      expect(res.allow).toContain("GET");
      expect(JSON.parse(res.body).error.code).toBe("method_not_allowed");
    }
    // methods Node's parser does not know are its own 400, before any server code
    for (const method of ["TRACK", "BREW"]) expect((await send(method, "/customers")).status, method).toBe(400);
    expect(reached).toBe(before);
  });

  it("answers with the security headers of every API answer", async () => {
    for (const [method, path] of [["TRACE", "/"], ["GET", "/%ff"], ["GET", "/api/shops?q=%00"]] as const) {
      const res = await send(method, path);
      expect(res.headers, `${method} ${path}`).toMatchObject({
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "referrer-policy": "no-referrer",
      });
    }
  });

  it("answers a query parameter holding NUL with 400 naming it, before the app runs", async () => {
    const before = reached;
    for (const path of ["/api/orders/refunds?orderNo=%00", "/api/search/customers?q=%00ab", "/api/shops?q=%00"]) {
      const res = await send("GET", path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body).error).toMatchObject({ code: "invalid_text", fieldErrors: [{ field: new URL(path, "http://x").searchParams.keys().next().value }] });
    }
    expect(reached).toBe(before);
  });

  it("answers malformed percent-encoding in the path with 400, and lets good requests through", async () => {
    for (const path of ["/customers/%ff", "/api/platform/v1/deals/%ff", "/%E4%B8"]) expect((await send("GET", path)).status, path).toBe(400);
    const before = reached;
    expect((await send("GET", "/customers/%E4%B8%AD?lang=%ff")).status).toBe(200);
    expect((await send("DELETE", "/api/platform/v1/deals/1")).status).toBe(200);
    expect(reached).toBe(before + 2);
  });
});
