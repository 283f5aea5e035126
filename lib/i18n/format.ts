import type { MessageKey, Messages } from "./messages";

export type TranslateValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: TranslateValues) => string;

/**
 * `key` of one language's dictionary with `{name}` placeholders filled from `values`. Kept apart
 * from messages.ts so client code formats without bundling every language's strings.
 */
export function formatMessage(dictionary: Messages, key: MessageKey, values?: TranslateValues): string {
  const template = dictionary[key] ?? key;
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
