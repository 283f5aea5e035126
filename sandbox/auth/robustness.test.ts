import { describe, expect, it } from "vitest";
import { TestBrowser, startSandboxForFile } from "../testing/harness";

const { sandbox, alpha } = await startSandboxForFile();

describe("malformed input never gives a 500", () => {
  const bodies: Array<[string, string]> = [
    ["application/json", "{oops"],
    ["multipart/form-data; boundary=x", "--x\r\nbroken"],
    ["application/x-www-form-urlencoded", "%%%=&&=="],
    ["text/plain", "\u0000\uffff"],
  ];
  const routes = [
    "/login",
    "/logout",
    "/oauth2/authorize",
    "/oauth2/token",
    "/application/mktapp/install",
    "/application/mktapp/uninstall",
    "/__sandbox/config",
    "/__sandbox/tokens/revoke",
    "/__sandbox/installations",
    "/__sandbox/cloudtokens",
    "/__sandbox/authorize",
    "/__sandbox/webhooks/config",
    "/__sandbox/webhooks/send",
  ];
  it.each(routes)("POST %s", async (route) => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    for (const [type, body] of bodies) {
      const res = await browser.request(`${alpha}${route}`, { method: "POST", headers: { "content-type": type }, body });
      expect(res.status, `${route} with ${type}`).toBeLessThan(500);
      await res.arrayBuffer();
    }
  });

  it("GET endpoints with odd query strings", async () => {
    for (const path of ["/oauth2/authorize?client_id=%E0%A4%A", "/extension/cloudinfo?token=%ZZ", "/v1/users/current?access_token=%", "/__sandbox/webhooks/deliveries?status=nope"]) {
      const res = await fetch(`${alpha}${path}`);
      expect(res.status, path).toBeLessThan(500);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
    }
  });
});

describe("HTML pages", () => {
  it("may be framed only by the platform and the app, and are not cached", async () => {
    const res = await fetch(`${alpha}/login`);
    expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'self' http://localhost:3000");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("control plane additions in production mode", () => {
  it("refuse every call", async () => {
    sandbox.ctx.config.production = true;
    try {
      for (const [method, path] of [
        ["GET", "/__sandbox/config"],
        ["POST", "/__sandbox/tokens/revoke"],
        ["POST", "/__sandbox/authorize"],
        ["POST", "/__sandbox/cloudtokens"],
        ["POST", "/__sandbox/installations"],
        ["GET", "/__sandbox/webhooks/deliveries"],
        ["POST", "/__sandbox/webhooks/config"],
        ["POST", "/__sandbox/webhooks/send"],
      ] as const) {
        const res = await fetch(`${alpha}${path}`, { method, body: method === "POST" ? JSON.stringify({ environment: "alpha" }) : undefined });
        expect(res.status, path).toBe(403);
      }
    } finally {
      sandbox.ctx.config.production = false;
    }
  });
});
