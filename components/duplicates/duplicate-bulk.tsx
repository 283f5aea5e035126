"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { appQuery, invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { EXACT_RULES } from "@/lib/duplicates/match-keys";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { TaskPanel } from "@/components/tasks/task-panel";
import { useTasks } from "@/components/tasks/use-tasks";
import { isActive } from "@/lib/tasks/task-api";
import { DuplicateHistory } from "./duplicate-history";

const BULK_TASK = "duplicates.bulk";
type Counts = { merged: number; refused: number; skipped: number };

/**
 * Bulk merge of one exact rule: choose the rule, see the dry run (each survivor and what merges into
 * it), start it as a background task (the task panel: progress, who started it, Stop), and the
 * latest run's history (what merged into what, and any refusal with its reason).
 */
export function DuplicateBulk() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [rule, setRule] = useState<string>(EXACT_RULES[1]!);
  const [preview, setPreview] = useState(false);
  const plan = useQuery({ ...appQuery("duplicates.plan", { query: { rule: rule as never } }), enabled: preview });
  const run = useTasks([BULK_TASK], 1).tasks?.[0];
  const running = run !== undefined && isActive(run);
  const start = useMutation({
    meta: { silent: true },
    mutationFn: () => appCall("duplicates.bulk", { body: { rule: rule as never } }),
    onSuccess: async () => {
      setPreview(false);
      await invalidateAppAfter(queryClient, "duplicates.bulk");
    },
  });
  const merges = (plan.data?.plan ?? []).reduce((n, item) => n + item.fromIds.length, 0);
  const result = (run?.result ?? null) as Counts | null;

  return (
    <section aria-labelledby="duplicate-bulk-title" className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4" data-testid="duplicate-bulk">
      <h2 id="duplicate-bulk-title" className="text-base font-semibold text-slate-900">{t("duplicates.bulkTitle")}</h2>
      <p className="text-sm text-slate-800">{t("duplicates.bulkIntro")}</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          {t("duplicates.bulkRule")}
          <select className="rounded-md border border-slate-400 px-2 py-1" value={rule} onChange={(e) => { setRule(e.target.value); setPreview(false); }}>
            {EXACT_RULES.map((r) => (
              <option key={r} value={r}>{t(`duplicates.rule.${r}` as MessageKey)}</option>
            ))}
          </select>
        </label>
        <Button onClick={() => setPreview(true)}>{t("duplicates.dryRun")}</Button>
      </div>
      {preview && plan.data && (
        <div className="flex flex-col gap-2" data-testid="duplicate-plan">
          <p className="text-sm" role="status">{t("duplicates.planSummary", { clusters: plan.data.plan.length, merges })}</p>
          <ul className="max-h-48 overflow-auto text-xs">
            {plan.data.plan.map((item) => (
              <li key={item.toId}>{t("duplicates.planItem", { from: item.fromIds.join(", "), to: item.toId })}</li>
            ))}
          </ul>
          <div>
            <Button variant="danger" disabled={merges === 0 || start.isPending || running} onClick={() => start.mutate()}>
              {t("duplicates.bulkStart", { merges })}
            </Button>
          </div>
        </div>
      )}
      <FormAlert error={plan.error ?? start.error} />
      <TaskPanel kinds={[BULK_TASK]} limit={1} testId="duplicate-bulk-task" label={(task) => t("duplicates.bulkTask", { rule: t(`duplicates.rule.${String((task.input as { rule?: string }).rule)}` as MessageKey) })} />
      {run && (
        <div className="flex flex-col gap-2" data-testid="duplicate-bulk-run">
          {run.state === "done" && result && <p className="text-sm text-slate-900" role="status">{t("duplicates.bulkDone", { merged: result.merged, refused: result.refused, skipped: result.skipped })}</p>}
          <DuplicateHistory taskId={run.id} refreshing={running} />
        </div>
      )}
    </section>
  );
}
