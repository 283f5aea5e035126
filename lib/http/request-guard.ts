/**
 * The one check of a request's shape before any route sees it: installed in front of Next's Node
 * server from instrumentation.ts (node-request-guard.ts), so it covers every route, the platform
 * proxy included, and methods Next itself cannot represent. Bad input is a clear 4xx, never a 5xx:
 * - a method no route serves (TRACE, CONNECT, anything unknown) → 405 with `Allow`;
 * - a path whose percent-encoding does not decode (`/customers/%ff`) → 400;
 * - `lang` (the platform's language, §5.4.4) is a language tag or ignored (`validLang`, used by
 *   proxy.ts): it never reaches a header unchecked (a non-ASCII value there used to throw).
 * No edge runtime APIs: pure functions of the method and the URL.
 */

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);

/** BCP 47-shaped and short (`en`, `zh-CN`, `zh-Hans-CN`): enough for `matchLocale`, never anything else. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;

export type GuardProblem = { status: 400 | 405; code: string; message: string; headers?: Record<string, string> };

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
  if (!isPathEncodingValid(rawPathOf(url))) return { status: 400, code: "malformed_path", message: "The address is not validly percent-encoded." };
  return undefined;
}

/** The platform's `lang` when it is a plausible language tag; otherwise undefined (ignored). */
export function validLang(value: string | null | undefined): string | undefined {
  return value && value.length <= 35 && LANGUAGE_TAG.test(value) ? value : undefined;
}

/** A problem as a small JSON answer that is never cached. */
export function problemResponse(problem: GuardProblem): Response {
  return new Response(JSON.stringify({ error: { code: problem.code, message: problem.message } }), {
    status: problem.status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...problem.headers },
  });
}
