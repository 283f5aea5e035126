import { describe, expect, it } from "vitest";
import { problemResponse, rawPathOf, requestProblem, validLang } from "./request-guard";

describe("the request guard", () => {
  it("refuses TRACE, CONNECT and unknown methods with 405 and Allow", async () => {
    for (const method of ["TRACE", "CONNECT", "PROPFIND", "FOO"]) {
      const problem = requestProblem(method, "http://app.test/customers")!;
      expect(problem.status, method).toBe(405);
      const response = problemResponse(problem);
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toContain("GET");
      expect((await response.json()).error.code).toBe("method_not_allowed");
    }
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "get"]) expect(requestProblem(method, "http://app.test/")).toBeUndefined();
  });

  it("refuses a path whose percent-encoding does not decode with 400, and nothing else", () => {
    for (const path of ["/customers/%ff", "/api/platform/v1/deals/%ff", "/%", "/a%zz", "/%E4%B8", "/x/%c0%af"]) {
      expect(requestProblem("GET", `http://app.test${path}?q=1`)?.status, path).toBe(400);
    }
    for (const path of ["/customers/9007199254740993", "/orders/SO%201%2F2", "/%E4%B8%AD", "/"]) {
      expect(requestProblem("GET", `http://app.test${path}?lang=%ff`), path).toBeUndefined();
    }
  });

  it("reads the raw path, not a decoded one", () => {
    expect(rawPathOf("http://app.test/a/%ff?x=%ff#y")).toBe("/a/%ff");
    expect(rawPathOf("http://app.test")).toBe("/");
    expect(rawPathOf("/p?q")).toBe("/p");
    // a query holding "//" is no authority (a fuzz find: `/orders/%?bb=//evil.example` got a 500)
    expect(rawPathOf("/orders/%?bb=//evil.example")).toBe("/orders/%");
    expect(requestProblem("PATCH", "/orders/%?bb=//evil.example")?.status).toBe(400);
    expect(rawPathOf("//evil.example/%ff")).toBe("//evil.example/%ff");
  });

  it("refuses text PostgreSQL cannot store in a query parameter or the path with 400 naming it", async () => {
    for (const [url, field] of [
      ["/api/orders/refunds?orderNo=%00", "orderNo"],
      ["/api/shops?q=%00", "q"],
      ["/api/search/customers?q=%00ab", "q"],
      ["/customers?page=1&%00=1", "\\u0000"],
      ["/api/shops/%00", "path"],
    ] as const) {
      const problem = requestProblem("GET", url);
      expect(problem, url).toMatchObject({ status: 400, code: "invalid_text", field });
      const body = await problemResponse(problem!).json();
      expect(body.error.fieldErrors).toEqual([{ field, message: expect.stringContaining("cannot be stored") }]);
    }
    // what PostgreSQL stores is let through (a bad UTF-8 escape decodes to U+FFFD; %2500 is "%00" as text)
    for (const url of ["/api/shops?q=%E4%B8%AD", "/api/shops?q=%ff", "/api/shops?q=%2500", "/health?lang=%ff"]) expect(requestProblem("GET", url), url).toBeUndefined();
  });

  it("answers with the headers of every API answer: nosniff, CSP default-src 'none', no-store, no referrer", () => {
    for (const problem of [requestProblem("TRACE", "/")!, requestProblem("GET", "/%ff")!, requestProblem("GET", "/?q=%00")!]) {
      const headers = Object.fromEntries(problemResponse(problem).headers);
      expect(headers).toMatchObject({
        "cache-control": "no-store",
        "content-type": "application/json; charset=utf-8",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "referrer-policy": "no-referrer",
      });
    }
  });

  it("keeps only a language tag as lang", () => {
    for (const ok of ["en", "zh-CN", "zh-Hans-CN", "en-GB"]) expect(validLang(ok)).toBe(ok);
    for (const bad of ["中", "\u0000", "en\r\nX-Evil: 1", "x".repeat(40), "", null, undefined, "e", "en-", "-en"]) expect(validLang(bad)).toBeUndefined();
  });
});
