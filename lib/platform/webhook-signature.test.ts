import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { removeJsonWhitespace, signWebhookPayload, verifyWebhookSignature } from "./webhook-signature";

const SECRET = "sandbox-webhook-secret";
const hmacHex = (text: string) => createHmac("sha256", SECRET).update(text, "utf8").digest("hex");

describe("§5.5 secret mode: the signed text", () => {
  it("removes whitespace between tokens and keeps string contents byte for byte", () => {
    const pretty = '{\n  "name" : "Li  Na\\t ",\r\n\t"tags": [ "a b" , 1 ],\n  "q": "say \\"hi there\\" ok"\n}\n';
    expect(removeJsonWhitespace(pretty)).toBe('{"name":"Li  Na\\t ","tags":["a b",1],"q":"say \\"hi there\\" ok"}');
  });

  it("treats an escaped backslash before a quote as the end of the string", () => {
    expect(removeJsonWhitespace('{ "a" : "x\\\\" , "b" : " y " }')).toBe('{"a":"x\\\\","b":" y "}');
  });

  it("keeps non-JSON whitespace such as U+3000 inside strings and Chinese text untouched", () => {
    expect(removeJsonWhitespace('{ "name": "王\u3000芳 " }')).toBe('{"name":"王\u3000芳 "}');
  });

  it("the compact JSON.stringify text of any value is unchanged, and any indentation is removed", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const compact = JSON.stringify(value);
        expect(removeJsonWhitespace(compact)).toBe(compact);
        expect(removeJsonWhitespace(JSON.stringify(value, null, 2))).toBe(compact);
        expect(removeJsonWhitespace(JSON.stringify(value, null, "\t"))).toBe(compact);
      }),
      { numRuns: 300 },
    );
  });
});

describe("§5.5 secret mode: signing and verifying", () => {
  const payload = { deliveryId: "whd_1", event: "customer.updated", data: { name: "Li Na", note: "two  spaces" } };
  const compact = JSON.stringify(payload);

  it("signs the compact text as lowercase hex HMAC-SHA256 keyed with the secret", () => {
    expect(signWebhookPayload(SECRET, compact)).toBe(hmacHex(compact));
    expect(signWebhookPayload(SECRET, compact)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts the sender's signature over the compact body and over the same body pretty-printed", () => {
    const signature = hmacHex(compact);
    expect(verifyWebhookSignature(SECRET, compact, signature)).toBe(true);
    expect(verifyWebhookSignature(SECRET, JSON.stringify(payload, null, 2), signature)).toBe(true);
    expect(verifyWebhookSignature(SECRET, compact, signature.toUpperCase())).toBe(true);
  });

  it("rejects a change inside a string (whitespace there is content), another secret, and bad headers", () => {
    const signature = hmacHex(compact);
    expect(verifyWebhookSignature(SECRET, compact.replace("Li Na", "LiNa"), signature)).toBe(false);
    expect(verifyWebhookSignature(SECRET, compact.replace("two  spaces", "two spaces"), signature)).toBe(false);
    expect(verifyWebhookSignature("another-secret-value", compact, signature)).toBe(false);
    for (const bad of [null, undefined, "", "abc", `${signature}00`, signature.slice(0, 63) + "g", `sha256=${signature}`]) {
      expect(verifyWebhookSignature(SECRET, compact, bad)).toBe(false);
    }
  });

  it("a signature made over the whitespace-free text of a pretty body verifies the compact body", () => {
    const pretty = JSON.stringify(payload, null, 4);
    expect(verifyWebhookSignature(SECRET, compact, signWebhookPayload(SECRET, pretty))).toBe(true);
  });
});
