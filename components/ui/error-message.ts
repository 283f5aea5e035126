import { ApiError } from "@/lib/http/api-error";
import type { Translate } from "@/lib/i18n/messages";

/**
 * A sentence for a failed call, in the user's language where the failure is a known kind. What
 * happened is told apart (the app's route maps the platform's failures, lib/http/route.ts): no
 * connection to the console's server (status 0), the platform not reachable from it
 * (`network_error`), no answer in time (504, `timeout`), the platform answering with an error such
 * as an injected 503 (502/503: unavailable, try again), the console's own server unavailable.
 */
export function errorMessage(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.body");
  if (error.status === 0) return t("error.network");
  if (error.status === 429) return t("error.rateLimited");
  if (error.status === 504 || error.code === "timeout") return t("error.timeout");
  if (error.code === "network_error") return t("error.platformUnreachable");
  if (error.code === "unavailable") return t("error.appUnavailable");
  if (error.status === 502 || error.status === 503) return t("error.unavailable");
  if (error.status === 404) return t("error.notFound");
  return t("error.generic", { message: error.message });
}

/**
 * Why one item of a bulk action failed: `errorMessage`, and for a 404 also the platform's words,
 * which say what was not found (`customer 123 not found`: the customer or the list).
 */
export function itemFailureReason(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.status === 404 && error.message) return `${t("error.notFound")} ${error.message}`;
  return errorMessage(error, t);
}
