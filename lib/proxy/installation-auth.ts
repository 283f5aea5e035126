import "server-only";

/**
 * The proxy's one door to app-auth: the session of a request and the installation's access token
 * (ARCHITECTURE.md §4 "Sessions in the iframe", "Tokens"). Kept as a module of its own so that
 * `proxy-deps.ts` names what it needs from app-auth in one place.
 */
export { requireApiSession, startUrl, type ConsoleSession } from "@/lib/auth/session";
export { getAccessToken } from "@/lib/auth/access-token";
export { ReauthRequiredError } from "@/lib/http/api-error";
