import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * §5.3: the check of requests the platform sends to the app (the authorization callback).
 * Pure functions, shared by tests; no "server-only" so the sandbox's vectors can be checked too.
 */

/** §5.3.3: `%` → `%25`, `&` → `%26`, `=` → `%3D` in keys and values (in that order, so `%` is not doubled). */
function escapePart(text: string): string {
  return text.replace(/%/g, "%25").replace(/&/g, "%26").replace(/=/g, "%3D");
}

/** §5.3.1–4: drop `hmac` and `state`, sort by key, escape, join as `k=v` with `&`. */
export function canonicalString(params: Iterable<[string, string]>): string {
  return [...params]
    .filter(([k]) => k !== "hmac" && k !== "state")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${escapePart(k)}=${escapePart(v)}`)
    .join("&");
}

/** §5.3.5: lowercase hex HMAC-SHA256 of the canonical string, keyed with the client secret. */
export function computeHmac(secret: string, params: Iterable<[string, string]>): string {
  return createHmac("sha256", secret).update(canonicalString(params), "utf8").digest("hex");
}

/** §5.3.6 in constant time. A value of the wrong shape is simply not equal. */
export function verifyHmac(secret: string, params: Iterable<[string, string]>, received: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(received)) return false;
  const expected = Buffer.from(computeHmac(secret, params), "hex");
  return timingSafeEqual(expected, Buffer.from(received.toLowerCase(), "hex"));
}

/**
 * The callback's `timestamp` must be within `maxAgeSeconds` of now, either way (clock skew). The spec
 * does not give its unit: values above 10^11 are read as milliseconds, others as seconds.
 */
export function timestampWithinWindow(timestamp: string, maxAgeSeconds: number, nowMs = Date.now()): boolean {
  if (!/^\d{1,16}$/.test(timestamp)) return false;
  const value = Number(timestamp);
  const ms = value > 1e11 ? value : value * 1000;
  return Math.abs(nowMs - ms) <= maxAgeSeconds * 1000;
}
