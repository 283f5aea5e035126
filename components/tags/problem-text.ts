"use client";
import type { Problem } from "@/lib/console/tag-forms";
import { useTagsDialogI18n } from "./use-tags-dialog-i18n";

/** The sentence of a form problem of the tag forms. */
export function useProblemText() {
  const { t } = useTagsDialogI18n();
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
