"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { formatHomeTimeIn, formatUtcTitle, parsePlatformTime } from "@/lib/time";

/**
 * A platform time shown in UTC+8 in the console language's format, with the UTC value on hover (§2,
 * ARCHITECTURE.md §4). The console's one way to show a time: `value` is a platform time, or epoch
 * ms (the app's own records: a shop last seen, a group created, an import started).
 */
export function TimeText({ value: given, stacked = false }: { value: string | number | null | undefined; /** Date over time (narrow table columns). */ stacked?: boolean }) {
  const { locale } = useI18n();
  if (given === null || given === undefined || given === "") return null;
  const value = typeof given === "number" ? (Number.isFinite(given) ? new Date(given).toISOString() : "") : given;
  if (!value) return null;
  const ms = parsePlatformTime(value);
  if (ms === undefined) return <span>{value}</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatUtcTitle(value)} className="tabular-nums whitespace-nowrap">
      {stacked ? <StackedTime text={formatHomeTimeIn(value, locale)} /> : formatHomeTimeIn(value, locale)}
    </time>
  );
}

/** The date and the time of a formatted value on two lines (the time is the last space-separated part). */
function StackedTime({ text }: { text: string }) {
  const cut = text.lastIndexOf(" ");
  if (cut < 0) return <>{text}</>;
  return (
    <>
      <span className="block">{text.slice(0, cut)}</span>{" "}
      <span className="block text-slate-700">{text.slice(cut + 1)}</span>
    </>
  );
}
