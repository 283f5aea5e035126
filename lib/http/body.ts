import { ApiError } from "@/lib/http/api-error";
import { parseJson } from "@/lib/platform/json";
import { isStorableText, shownName, unstorableTextProblem } from "./request-guard";

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

/** The path of the first string (or key) in `value` that PostgreSQL text cannot hold (`a.b.0`), if any. */
export function unstorableTextPath(value: unknown, path = ""): string | undefined {
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (typeof value === "string") return isStorableText(value) ? undefined : path || "body";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], at(i));
      if (found !== undefined) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return at(shownName(key));
      const found = unstorableTextPath(item, at(key));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The edge's text rule for a value read from a body (request-guard.ts does the query): 400
 * `invalid_text` naming the field when a string holds what PostgreSQL text cannot store, so the
 * input is refused the same on both stores and before anything is sent to the platform.
 */
export function refuseUnstorableText(value: unknown, path = ""): void {
  const field = unstorableTextPath(value, path);
  if (field === undefined) return;
  const problem = unstorableTextProblem(field, `The field "${field}"`);
  throw new ApiError({ status: problem.status, code: problem.code, message: problem.message, fieldErrors: [{ field, message: problem.message }] });
}

/**
 * The JSON body of a browser request: `readBodyText`, then `Content-Type: application/json` (415)
 * and valid JSON (400), parsed losslessly (ids above 2^53), and every string storable (400
 * `invalid_text` naming the field); an empty body is `undefined`.
 */
export async function readJsonBody(request: Request, { limit }: Pick<BodyOptions, "limit"> = {}): Promise<unknown> {
  const text = await readBodyText(request, { limit });
  if (text.trim() === "") return undefined;
  if (!/^application\/(.+\+)?json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new ApiError({ status: 415, code: "unsupported_media_type", message: "the body must be JSON (Content-Type: application/json)" });
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new ApiError({ status: 400, code: "invalid_json", message: "the body is not valid JSON" });
  }
  refuseUnstorableText(value);
  return value;
}
