import { describe, expect, it } from "vitest";
import { config } from "./proxy";

/** The paths Next runs the proxy (middleware) for: `config.matcher`, anchored as Next anchors it. */
const runsFor = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));

describe("which requests the proxy (middleware) sees", () => {
  it("every page and the other API routes, for the security headers and the platform's lang", () => {
    for (const path of ["/", "/health", "/customers/12?lang=zh-CN", "/api/auth/callback", "/api/events/imports", "/api/export/customers"]) {
      expect(runsFor(path.split("?")[0]!), path).toBe(true);
    }
  });

  it("not the platform API proxy (JSON that sets its own headers), the event import's upload (larger than Next lets a proxy pass) nor static files", () => {
    for (const path of ["/api/events/import", "/api/platform/v1/customers", "/api/platform/v1/customers/9007199254740993", "/_next/static/chunks/a.js", "/favicon.ico"]) {
      expect(runsFor(path), path).toBe(false);
    }
  });
});
