"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { formatHomeTimeIn, formatUtcTitle, parsePlatformTime } from "@/lib/time";

/** A platform time shown in UTC+8 in the console language's format, with the UTC value on hover (§2, ARCHITECTURE.md §4). */
export function TimeText({ value }: { value: string | null | undefined }) {
  const { locale } = useI18n();
  if (!value) return null;
  const ms = parsePlatformTime(value);
  if (ms === undefined) return <span>{value}</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatUtcTitle(value)} className="tabular-nums whitespace-nowrap">
      {formatHomeTimeIn(value, locale)}
    </time>
  );
}
