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

  it("keeps only a language tag as lang", () => {
    for (const ok of ["en", "zh-CN", "zh-Hans-CN", "en-GB"]) expect(validLang(ok)).toBe(ok);
    for (const bad of ["中", "\u0000", "en\r\nX-Evil: 1", "x".repeat(40), "", null, undefined, "e", "en-", "-en"]) expect(validLang(bad)).toBeUndefined();
  });
});
