import { API_SECURITY_HEADERS } from "./security-headers";

/**
 * The one check of a request's shape before any route sees it: installed in front of Next's Node
 * server from instrumentation.ts (node-request-guard.ts), so it covers every route, the platform
 * proxy included, and methods Next itself cannot represent. Bad input is a clear 4xx, never a 5xx:
 * - a method no route serves (TRACE, CONNECT, anything unknown) → 405 with `Allow`;
 * - a path whose percent-encoding does not decode (`/customers/%ff`) → 400;
 * - text PostgreSQL cannot store (NUL, a lone surrogate) in the path or a query parameter → 400
 *   naming the parameter, before any route reads it or sends it to the platform (the JSON body's
 *   strings get the same rule in body.ts);
 * - `lang` (the platform's language, §5.4.4) is a language tag or ignored (`validLang`, used by
 *   proxy.ts): it never reaches a header unchecked (a non-ASCII value there used to throw).
 * No edge runtime APIs: pure functions of the method and the URL.
 */

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);

/** BCP 47-shaped and short (`en`, `zh-CN`, `zh-Hans-CN`): enough for `matchLocale`, never anything else. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;

export type GuardProblem = { status: 400 | 405; code: string; message: string; field?: string; headers?: Record<string, string> };

/**
 * What a PostgreSQL `text` cannot hold: NUL, and a lone UTF-16 surrogate (it has no UTF-8). SQLite
 * stores both, so without this rule the same input is accepted on one store and a 500 on the other.
 */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** True when every character of `text` can be stored as PostgreSQL text. */
export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/** `text` with what PostgreSQL text cannot hold replaced by U+FFFD (for text the app must keep, not refuse). */
export const storableText = (text: string): string => (isStorableText(text) ? text : text.replace(/[\u0000\p{Cs}]/gu, "\uFFFD"));

/** A name as an error shows it: what cannot be stored escaped (`\u0000`), at most 64 characters. */
export const shownName = (name: string): string =>
  name.slice(0, 64).replace(/[\u0000-\u001f\p{Cs}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The refusal of text that cannot be stored, naming where it was (`field`: a query parameter or a body path). */
export function unstorableTextProblem(field: string, where: string): GuardProblem {
  return { status: 400, code: "invalid_text", field, message: `${where} holds a character that cannot be stored (NUL or a lone surrogate).` };
}

/** The query of a URL exactly as it was sent (after `?`, before `#`). */
function rawQueryOf(url: string): string {
  const start = url.indexOf("?");
  if (start < 0) return "";
  const end = url.indexOf("#", start);
  return url.slice(start + 1, end < 0 ? undefined : end);
}

/** The first query parameter (name or value) holding text that cannot be stored. */
export function queryTextProblem(url: string): GuardProblem | undefined {
  const query = rawQueryOf(url);
  if (!query) return undefined;
  for (const [name, value] of new URLSearchParams(query)) {
    if (!isStorableText(name) || !isStorableText(value)) return unstorableTextProblem(shownName(name), `The query parameter "${shownName(name)}"`);
  }
  return undefined;
}

/** Whether every `%xx` of the raw path is valid hex and the bytes decode as UTF-8. */
export function isPathEncodingValid(rawPath: string): boolean {
  if (!rawPath.includes("%")) return true;
  try {
    decodeURIComponent(rawPath);
    return true;
  } catch {
    return false;
  }
}

/** The path of a URL exactly as it was sent (not decoded), without query or fragment. */
export function rawPathOf(url: string): string {
  // A request target is a path (`/a?b=//c`); only an absolute URL has a scheme and authority to skip.
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  const rest = authority ? url.slice(authority[0].length) : url;
  const end = rest.search(/[?#]/);
  return (end < 0 ? rest : rest.slice(0, end)) || "/";
}

export function requestProblem(method: string, url: string): GuardProblem | undefined {
  if (!ALLOWED.has(method.toUpperCase())) {
    return { status: 405, code: "method_not_allowed", message: `${method.slice(0, 16)} is not served here.`, headers: { Allow: ALLOWED_METHODS.join(", ") } };
  }
  const rawPath = rawPathOf(url);
  if (!isPathEncodingValid(rawPath)) return { status: 400, code: "malformed_path", message: "The address is not validly percent-encoded." };
  // Decoded, a path is what a route reads as an id: `%00` there is the same unstorable text.
  if (/%00/i.test(rawPath)) return unstorableTextProblem("path", "The path");
  return queryTextProblem(url);
}

/** The platform's `lang` when it is a plausible language tag; otherwise undefined (ignored). */
export function validLang(value: string | null | undefined): string | undefined {
  return value && value.length <= 35 && LANGUAGE_TAG.test(value) ? value : undefined;
}

/** The JSON body of a problem's answer: the API's one error shape (a field error names the parameter). */
export function problemBody(problem: GuardProblem): string {
  const fieldErrors = problem.field ? [{ field: problem.field, message: problem.message }] : undefined;
  return JSON.stringify({ error: { code: problem.code, message: problem.message, ...(fieldErrors ? { fieldErrors } : {}) } });
}

/** The headers of a problem's answer: those of every API answer (never cached, never a document). */
export function problemHeaders(problem: GuardProblem): Record<string, string> {
  return { ...API_SECURITY_HEADERS, "content-type": "application/json; charset=utf-8", ...problem.headers };
}

/** A problem as a small JSON answer that is never cached. */
export function problemResponse(problem: GuardProblem): Response {
  return new Response(problemBody(problem), { status: problem.status, headers: problemHeaders(problem) });
}
