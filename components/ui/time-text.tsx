import { formatHomeTime, formatUtcTitle, parsePlatformTime } from "@/lib/time";

/** A platform time shown in UTC+8, with the UTC value on hover (§2, ARCHITECTURE.md §4). */
export function TimeText({ value }: { value: string | null | undefined }) {
  if (!value) return null;
  const ms = parsePlatformTime(value);
  if (ms === undefined) return <span>{value}</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatUtcTitle(value)} className="tabular-nums whitespace-nowrap">
      {formatHomeTime(value)}
    </time>
  );
}
