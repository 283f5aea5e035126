"use client";
import { useMemo } from "react";
import { featureTranslate, type FeatureMessages, type FeatureTranslate } from "@/lib/i18n/feature-messages";
import { useI18n } from "./i18n-provider";

/** `t` of a feature's own dictionary (lib/i18n/feature-messages.ts), in the console's current language. */
export function useFeatureMessages<K extends string>(dictionary: FeatureMessages<K>): FeatureTranslate<K> {
  const { locale } = useI18n();
  return useMemo(() => featureTranslate(dictionary, locale), [dictionary, locale]);
}
