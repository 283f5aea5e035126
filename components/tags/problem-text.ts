"use client";
import type { Problem } from "@/lib/console/tag-forms";
import { useI18n } from "@/components/i18n/i18n-provider";

/** The sentence of a form problem of the tag forms. */
export function useProblemText() {
  const { t } = useI18n();
  return (problem: Problem, max: number): string => {
    switch (problem) {
      case "required":
        return t("tags.error.required");
      case "tooLong":
        return t("tags.error.tooLong", { max });
      case "comma":
        return t("tags.error.comma");
      case "unchanged":
        return t("tags.error.unchanged");
      case "taken":
        return t("tags.error.taken");
    }
  };
}
