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
});
