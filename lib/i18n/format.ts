import { renderMessage, type MessageValues } from "./icu";
import type { Locale } from "./locales";
import type { MessageKey, Messages } from "./message-key";

export type TranslateValues = MessageValues;
export type Translate = (key: MessageKey, values?: TranslateValues) => string;

/**
 * `key` of one language's compiled dictionary with its ICU arguments filled from `values` (plurals
 * by the language's rules). Kept apart from messages.ts so client code formats without bundling
 * every language's strings or the ICU parser.
 */
export function formatMessage(locale: Locale, dictionary: Messages, key: MessageKey, values?: TranslateValues): string {
  const message = dictionary[key];
  if (message === undefined) return key;
  return renderMessage(message, locale, values);
}
