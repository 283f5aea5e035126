import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { removeJsonWhitespace, signWebhookPayload } from "@/lib/platform/webhook-signature";
import { removeJsonWhitespace as senderRemoveWhitespace, signWebhookBody } from "@/sandbox/webhooks/signature";

/**
 * The sandbox's sender (sandbox/webhooks/signature.ts) and the app's receiver
 * (lib/platform/webhook-signature.ts) must agree on the signed text of §5.5 secret mode.
 */
describe("sender and receiver agree on the signed text", () => {
  it("for any JSON value, compact or indented, and for arbitrary (even malformed) text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, "\t", " \r\n"), (value, indent) => {
        const text = JSON.stringify(value, null, indent as string | number | undefined);
        expect(removeJsonWhitespace(text)).toBe(senderRemoveWhitespace(text));
        expect(signWebhookPayload("k-secret", text)).toBe(signWebhookBody("k-secret", JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('"', "\\", " ", "\t", "\n", "\r", "a", "{", "}", ":", ",", "李") }), (text) => {
        expect(removeJsonWhitespace(text)).toBe(senderRemoveWhitespace(text));
      }),
      { numRuns: 500 },
    );
  });
});
