import { describe, expect, it } from "vitest";
import { frameAncestors, securityHeaders } from "./security-headers";

describe("security headers", () => {
  it("frames only from self and the known platform origins", () => {
    expect(frameAncestors(["http://127.0.0.1:4000", "http://127.0.0.1:4001/", "https://*.example.com"])).toBe(
      "'self' http://127.0.0.1:4000 http://127.0.0.1:4001 https://*.example.com",
    );
  });

  it("sets the baseline and never X-Frame-Options", () => {
    const h = securityHeaders(["http://127.0.0.1:4000"]);
    expect(h["Content-Security-Policy"]).toBe("frame-ancestors 'self' http://127.0.0.1:4000; object-src 'none'; base-uri 'none'");
    expect(h["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["X-Content-Type-Options"]).toBe("nosniff");
    expect(Object.keys(h).map((k) => k.toLowerCase())).not.toContain("x-frame-options");
  });

  it("with a nonce, scripts need it ('strict-dynamic'), no plugins, no <base>", () => {
    const csp = securityHeaders(["http://127.0.0.1:4000"], "bm9uY2Vub25jZW5vbmNl")["Content-Security-Policy"]!;
    expect(csp.split("; ")).toEqual([
      "script-src 'nonce-bm9uY2Vub25jZW5vbmNl' 'strict-dynamic'",
      "frame-ancestors 'self' http://127.0.0.1:4000",
      "object-src 'none'",
      "base-uri 'none'",
    ]);
  });
});
