import { ApiError } from "@/lib/api/api-error";
import { parseJson } from "@/lib/platform/json";

/** The largest body the app's API routes read (the proxy's JSON, a webhook delivery). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Refuse bytes that are not UTF-8 (a decode without `stream` keeps no state between calls). */
const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8KeepingBom = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const tooLarge = (limit: number) => new ApiError({ status: 413, code: "payload_too_large", message: `the body is larger than ${limit} bytes` });

export type BodyOptions = {
  limit?: number;
  /** A byte order mark stays in the text (a webhook signature covers it). */
  keepBom?: boolean;
  /** The error code of a body that is not UTF-8 text. */
  invalidCode?: string;
};

/**
 * The one reader of request bodies: the exact text sent, refused (413) as soon as it passes
 * `limit` bytes whatever Content-Length claims, and (400) when it is not UTF-8. Pieces are kept and
 * decoded once at the end: one flat string for JSON.parse, not a decode and a concatenation each.
 */
export async function readBodyText(request: Request, { limit = MAX_BODY_BYTES, keepBom = false, invalidCode = "invalid_body" }: BodyOptions = {}): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const pieces: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      pieces.push(value);
    }
    return (keepBom ? utf8KeepingBom : utf8).decode(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size));
  } catch (error) {
    throw error instanceof ApiError ? error : new ApiError({ status: 400, code: invalidCode, message: "the body is not valid UTF-8 text" });
  }
}

/**
 * The JSON body of a browser request: `readBodyText`, then `Content-Type: application/json` (415)
 * and valid JSON (400), parsed losslessly (ids above 2^53); an empty body is `undefined`.
 */
export async function readJsonBody(request: Request, { limit }: Pick<BodyOptions, "limit"> = {}): Promise<unknown> {
  const text = await readBodyText(request, { limit });
  if (text.trim() === "") return undefined;
  if (!/^application\/(.+\+)?json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new ApiError({ status: 415, code: "unsupported_media_type", message: "the body must be JSON (Content-Type: application/json)" });
  }
  try {
    return parseJson(text);
  } catch {
    throw new ApiError({ status: 400, code: "invalid_json", message: "the body is not valid JSON" });
  }
}
