import { describe, expect, it } from "vitest";
import { readBodyText, readJsonBody } from "./body";

const post = (body: BodyInit, headers: Record<string, string> = {}) => new Request("http://app.test/api/x", { method: "POST", body, headers });
const BOM_JSON = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"id":9007199254740993}')]);

describe("the one body reader", () => {
  it("keeps a byte order mark when asked (a webhook signature covers it), drops it otherwise", async () => {
    expect(await readBodyText(post(BOM_JSON), { keepBom: true })).toBe('\uFEFF{"id":9007199254740993}');
    expect(await readBodyText(post(BOM_JSON))).toBe('{"id":9007199254740993}');
  });

  it("refuses past the limit (413) and non-UTF-8 bytes (400, with the caller's code)", async () => {
    await expect(readBodyText(post("12345"), { limit: 4 })).rejects.toMatchObject({ status: 413, code: "payload_too_large" });
    await expect(readBodyText(post(new Uint8Array([0xff])), { invalidCode: "invalid_payload" })).rejects.toMatchObject({ status: 400, code: "invalid_payload" });
  });

  it("reads JSON losslessly; an empty body is undefined; other types are 415", async () => {
    expect(await readJsonBody(post(BOM_JSON, { "content-type": "application/json" }))).toEqual({ id: 9007199254740993n });
    expect(await readJsonBody(post(" ", { "content-type": "text/plain" }))).toBeUndefined();
    await expect(readJsonBody(post("a=1", { "content-type": "text/plain" }))).rejects.toMatchObject({ status: 415 });
  });

  it("refuses a string or key holding text PostgreSQL cannot store with 400 naming the field path", async () => {
    const json = (text: string) => post(text, { "content-type": "application/json" });
    for (const [text, field] of [
      ['{"reason":"a\\u0000b"}', "reason"],
      ['{"refund":{"orderNo":"SO1\\u0000"}}', "refund.orderNo"],
      ['{"shopIds":["1","2\\u0000"]}', "shopIds.1"],
      ['{"name":"\\ud800"}', "name"],
      ['{"a\\u0000":1}', "a\\u0000"],
      ['"\\u0000"', "body"],
    ] as const) {
      const refused = await readJsonBody(json(text)).then(() => undefined, (error: unknown) => error);
      expect(refused, text).toMatchObject({ status: 400, code: "invalid_text", fieldErrors: [{ field }] });
    }
    // a pair of surrogates is one character (stored as it is), and so is the text "\\u0000"
    expect(await readJsonBody(json('{"name":"\\ud83d\\ude00 \\\\u0000"}'))).toEqual({ name: "\u{1F600} \\u0000" });
  });
});
