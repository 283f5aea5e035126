import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalHmacString, escapeHmacPart, signCallbackParams } from "./hmac";
import vectorFile from "./hmac-vectors.json";

type Vector = { description: string; secret: string; params: Record<string, string>; query: string; canonical: string; hmac: string };
const vectors = vectorFile as unknown as Vector[];

describe("§5.3 HMAC of the authorization callback", () => {
  it.each(vectors)("vector: $description", (v) => {
    expect(canonicalHmacString(v.params)).toBe(v.canonical);
    expect(signCallbackParams(v.secret, v.params)).toBe(v.hmac);
    // The published hex is the plain HMAC-SHA256 of the canonical string (independent check).
    expect(createHmac("sha256", v.secret).update(v.canonical, "utf8").digest("hex")).toBe(v.hmac);
    // The query as sent on the wire decodes to the signed params.
    expect(Object.fromEntries(new URLSearchParams(v.query))).toEqual(v.params);
  });

  it("covers the characters the spec singles out and non-ASCII text", () => {
    const all = vectors.map((v) => Object.values(v.params).join("")).join("");
    for (const ch of ["%", "&", "=", " ", "+"]) expect(all).toContain(ch);
    expect(all).toMatch(/[\u4e00-\u9fff]/);
  });

  it("escapes % before & and =, so escapes are not escaped twice", () => {
    expect(escapeHmacPart("%&=")).toBe("%25%26%3D");
    expect(escapeHmacPart("a b+c")).toBe("a b+c");
  });

  it("sorts by key and leaves out hmac and state", () => {
    expect(canonicalHmacString({ timestamp: "1", code: "x", state: "s", hmac: "h" })).toBe("code=x&timestamp=1");
  });

  it("changes when any signed value changes", () => {
    const base = signCallbackParams("k", { code: "x", timestamp: "1" });
    expect(signCallbackParams("k", { code: "y", timestamp: "1" })).not.toBe(base);
    expect(signCallbackParams("k2", { code: "x", timestamp: "1" })).not.toBe(base);
    expect(signCallbackParams("k", { code: "x", timestamp: "1", state: "anything" })).toBe(base);
  });
});
