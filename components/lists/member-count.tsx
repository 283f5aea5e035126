"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { useEffect, useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { countInput, joinedRangeProblem, type MembersState } from "@/lib/lists/list-members-state";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";

// The range inputs load after the count (the /lists/[id] first load is over its first-load target), as the
// customers page's time filters do.
const DateTimeField = clientOnly(() => import("@/components/ui/date-time-field").then((m) => m.DateTimeField));

type Range = Pick<MembersState, "joinedFrom" | "joinedTo">;

const PROBLEMS: Record<NonNullable<ReturnType<typeof joinedRangeProblem>>, MessageKey> = {
  invalidFrom: "lists.count.invalidTime",
  invalidTo: "lists.count.invalidTime",
  reversed: "lists.count.reversed",
};

/** The field each problem stands on. */
const PROBLEM_FIELD: Record<keyof typeof PROBLEMS, keyof Range> = { invalidFrom: "joinedFrom", invalidTo: "joinedTo", reversed: "joinedTo" };

/** The member count of a list (§4.4 memberCount), optionally of a joined-date range typed in UTC+8 and sent in UTC. */
export function MemberCount({ listId, range, onRange }: { listId: string; range: Range; onRange: (range: Range) => void }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<Range>(range);
  const settled = useDebouncedValue(draft);
  const problem = joinedRangeProblem(settled);
  useEffect(() => {
    // Only a valid range reaches the URL (and the query); an invalid one shows its error.
    if (!problem && (settled.joinedFrom !== range.joinedFrom || settled.joinedTo !== range.joinedTo)) onRange(settled);
  }, [settled, problem, range.joinedFrom, range.joinedTo, onRange]);
  const total = useQuery({ ...platformQuery("listMembers.count", countInput(listId, { joinedFrom: "", joinedTo: "" })) });
  const ranged = Boolean(range.joinedFrom || range.joinedTo) && !joinedRangeProblem(range);
  const inRange = useQuery({ ...platformQuery("listMembers.count", countInput(listId, range)), enabled: ranged, placeholderData: keepPreviousData });

  // A count not known yet shows as "…"; a known one goes to the message as a number.
  const counted = (key: "lists.count.all" | "lists.count.range", n: number | undefined) => (n === undefined ? "…" : t(key, { count: n }));
  return (
    <section aria-labelledby="member-count-title" className="rounded-lg border border-slate-300 bg-white p-4">
      <h2 id="member-count-title" className="text-base font-semibold text-slate-900">{t("lists.count.title")}</h2>
      <p className="mt-1 text-sm text-slate-900" aria-live="polite" data-testid="member-count">
        {total.isError ? errorMessage(total.error, t) : counted("lists.count.all", total.data)}
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        {(["joinedFrom", "joinedTo"] as const).map((field) => (
          <DateTimeField
            key={field}
            label={t(field === "joinedFrom" ? "lists.count.from" : "lists.count.to")}
            value={draft[field]}
            onChange={(value) => setDraft((d) => ({ ...d, [field]: value }))}
            error={problem && PROBLEM_FIELD[problem] === field ? t(PROBLEMS[problem]) : undefined}
            name={field}
          />
        ))}
        <Button
          className="sm:mt-6"
          onClick={() => setDraft({ joinedFrom: "", joinedTo: "" })}
          disabled={!draft.joinedFrom && !draft.joinedTo}
        >
          {t("lists.count.clear")}
        </Button>
      </div>
      <p className="mt-1 text-xs text-slate-700">{t("lists.count.help")}</p>
      {ranged && (
        <p className="mt-2 text-sm font-medium text-slate-900" aria-live="polite" data-testid="member-count-range">
          {inRange.isError ? errorMessage(inRange.error, t) : counted("lists.count.range", inRange.isPlaceholderData ? undefined : inRange.data)}
        </p>
      )}
    </section>
  );
}
