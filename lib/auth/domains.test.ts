import { describe, expect, it } from "vitest";
import { isAllowedOrigin, normalizeOrigin, originMatches } from "./domains";

describe("platform domain allowlist", () => {
  it("normalizes domains to origins and refuses anything else", () => {
    expect(normalizeOrigin("http://127.0.0.1:4000/")).toBe("http://127.0.0.1:4000");
    expect(normalizeOrigin("cep.example.com")).toBe("https://cep.example.com");
    expect(normalizeOrigin("HTTPS://CEP.Example.com:443")).toBe("https://cep.example.com");
    for (const bad of ["", "javascript:alert(1)", "ftp://x.com", "https://u:p@x.com", "https://x.com/path", "https://x.com?q=1", "http://"])
      expect(normalizeOrigin(bad)).toBeUndefined();
  });

  it("matches exact origins including scheme and port", () => {
    expect(originMatches("http://127.0.0.1:4000", "http://127.0.0.1:4000")).toBe(true);
    expect(originMatches("http://127.0.0.1:4001", "http://127.0.0.1:4000")).toBe(false);
    expect(originMatches("https://127.0.0.1:4000", "http://127.0.0.1:4000")).toBe(false);
  });

  it("matches *. wildcards on subdomains only, never the apex or a look-alike", () => {
    const p = "https://*.cep.example.com";
    expect(originMatches("https://t1.cep.example.com", p)).toBe(true);
    expect(originMatches("https://a.b.cep.example.com", p)).toBe(true);
    expect(originMatches("https://cep.example.com", p)).toBe(false);
    expect(originMatches("https://evilcep.example.com", p)).toBe(false);
    expect(originMatches("https://t1.cep.example.com.evil.io", p)).toBe(false);
    expect(originMatches("http://t1.cep.example.com", p)).toBe(false);
    expect(originMatches("https://t1.cep.example.com:8443", p)).toBe(false);
    expect(isAllowedOrigin("https://x.cep.example.com", ["http://127.0.0.1:4000", p])).toBe(true);
    expect(isAllowedOrigin("https://evil.io", ["http://127.0.0.1:4000", p])).toBe(false);
  });
});
