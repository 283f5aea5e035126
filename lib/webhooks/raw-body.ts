/** Largest webhook body accepted (the spec sets no request-size limit, §8; deliveries are small). */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

export type RawBody = { ok: true; text: string } | { ok: false; status: 400 | 413; message: string };

/**
 * Reads the request body as the exact text that was sent, before any parsing: stops reading (413) as
 * soon as it exceeds `limit` bytes, whatever Content-Length claims, and refuses bytes that are not UTF-8.
 */
export async function readRawBody(request: Request, limit = MAX_WEBHOOK_BODY_BYTES): Promise<RawBody> {
  const tooLarge = { ok: false, status: 413, message: `body larger than ${limit} bytes` } as const;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > limit) return tooLarge;
  if (!request.body) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, message: "the body could not be read" };
  }
  try {
    // ignoreBOM: a byte-order mark stays in the text (and so in what a signature covers).
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, status: 400, message: "the body is not UTF-8 text" };
  }
}
