import { ApiError } from "@/lib/api/api-error";
import type { Translate } from "@/lib/i18n/messages";

/** A sentence for a failed call, in the user's language where the failure is a known kind. */
export function errorMessage(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.body");
  if (error.status === 0) return t("error.network");
  if (error.status === 429) return t("error.rateLimited");
  if (error.status === 502 || error.status === 503 || error.status === 504) return t("error.upstream");
  if (error.status === 404) return t("error.notFound");
  return t("error.generic", { message: error.message });
}
