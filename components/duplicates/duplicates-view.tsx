"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { appQuery, invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import type { Pair } from "@/lib/duplicates/clusters";
import type { QueueCluster } from "@/lib/duplicates/types";
import type { MessageKey } from "@/lib/i18n/messages";
import { isActive } from "@/lib/tasks/task-api";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { DuplicateBulk } from "./duplicate-bulk";
import { DuplicateHistory } from "./duplicate-history";
import { DuplicateReview } from "./duplicate-review";

const PAGE = 20;

/**
 * The duplicates queue: clusters of likely duplicate customers (A=B, B=C), strongest first, each
 * with the rules that found it; one pair at a time reviewed side by side, merged, dismissed ("not
 * the same person", never suggested again) or skipped. Below: the bulk merge of one exact rule and
 * the history of merges.
 */
export function DuplicatesView() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<{ cluster: string; pair: number } | null>(null);
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const queue = useQuery({ ...appQuery("duplicates.queue", { query: { limit: PAGE, offset } }), refetchInterval: (q) => (q.state.data?.scan && isActive(q.state.data.scan) ? 2000 : false) });
  const clusters = (queue.data?.clusters ?? []).filter((c) => !skipped.has(c.id));
  const current = selected ? clusters.find((c) => c.id === selected.cluster) : undefined;
  const pair: Pair | undefined = current?.pairs[selected!.pair] ?? current?.pairs[0];

  const done = async () => {
    await invalidateAppAfter(queryClient, "duplicates.merge");
  };
  const merge = useMutation({
    meta: { silent: true },
    mutationFn: (body: { fromId: string; toId: string; rule: string | null }) => appCall("duplicates.merge", { body: body as never }),
    onSuccess: async (answer) => {
      toastStore.show("success", t("duplicates.merged", { from: answer.fromId, to: answer.toId }));
      await done();
    },
  });
  const dismiss = useMutation({
    meta: { silent: true },
    mutationFn: (body: { a: string; b: string }) => appCall("duplicates.dismiss", { body }),
    onSuccess: async () => {
      toastStore.show("success", t("duplicates.dismissed"));
      await invalidateAppAfter(queryClient, "duplicates.dismiss");
    },
  });
  const scan = useMutation({
    meta: { silent: true },
    mutationFn: () => appCall("duplicates.scan", {}),
    onSuccess: () => invalidateAppAfter(queryClient, "duplicates.scan"),
  });

  const review = (cluster: QueueCluster) => {
    merge.reset();
    dismiss.reset();
    setSelected({ cluster: cluster.id, pair: 0 });
  };
  const total = queue.data?.total ?? 0;
  const scanRun = queue.data?.scan;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("duplicates.title")}
        aside={<p className="text-sm text-slate-800" data-testid="duplicates-total">{t("duplicates.total", { clusters: queue.data?.counts.clusters ?? 0, pairs: queue.data?.counts.pairs ?? 0 })}</p>}
        intro={t("duplicates.intro")}
      />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <p role="status" data-testid="duplicates-scan-status">
          {scanRun && isActive(scanRun)
            ? t("duplicates.scanRunning", { done: scanRun.progress.done, total: scanRun.progress.total ?? 0 })
            : scanRun?.state === "done"
              ? t("duplicates.scanDone")
              : scanRun?.state === "failed"
                ? t("duplicates.scanFailed", { error: scanRun.error ?? "" })
                : t("duplicates.scanIdle")}
        </p>
        <Button disabled={scan.isPending || (scanRun !== null && scanRun !== undefined && isActive(scanRun))} onClick={() => scan.mutate()}>
          {t("duplicates.rescan")}
        </Button>
        <FormAlert error={scan.error} />
      </div>

      {current && pair && (
        <DuplicateReview
          key={`${pair.a}:${pair.b}`}
          pair={pair}
          busy={merge.isPending || dismiss.isPending}
          error={merge.error ?? dismiss.error}
          onMerge={(fromId, toId) => merge.mutate({ fromId, toId, rule: pair.rules[0] ?? null }, { onSuccess: () => setSelected(null) })}
          onDismiss={() => dismiss.mutate({ a: pair.a, b: pair.b }, { onSuccess: () => setSelected(null) })}
          onSkip={() => {
            setSkipped((s) => new Set([...s, current.id]));
            setSelected(null);
          }}
        />
      )}

      <QueryView query={queue} hasRows={clusters.length > 0} testId="duplicates" loading={t("duplicates.loading")} empty={{ title: t("duplicates.emptyTitle"), body: t("duplicates.emptyBody") }}>
        <ol className="flex flex-col gap-2" aria-label={t("duplicates.listLabel")} data-testid="duplicate-clusters">
          {clusters.map((cluster) => (
            <li key={cluster.id} className="flex flex-wrap items-start justify-between gap-3 rounded-md border border-slate-300 bg-white p-3" data-testid="duplicate-cluster" data-cluster={cluster.id}>
              <div className="flex min-w-0 flex-col gap-1">
                <p className="text-sm font-medium text-slate-900">
                  {cluster.members.map((m) => `${m.displayName ?? t("duplicates.noName")} (${m.id})`).join(" = ")}
                </p>
                <p className="text-xs text-slate-700" data-testid="duplicate-cluster-reasons">
                  {cluster.rules.map((r) => t(`duplicates.rule.${r}` as MessageKey)).join(" · ")} — {t("duplicates.score", { score: cluster.score })}
                </p>
              </div>
              <Button onClick={() => review(cluster)} aria-label={t("duplicates.reviewLabel", { ids: cluster.members.map((m) => m.id).join(", ") })}>
                {t("duplicates.review")}
              </Button>
            </li>
          ))}
        </ol>
        <div className="flex items-center gap-2 text-sm">
          <Button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>{t("duplicates.previous")}</Button>
          <span>{t("duplicates.page", { from: total === 0 ? 0 : offset + 1, to: Math.min(total, offset + PAGE), total })}</span>
          <Button disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>{t("duplicates.next")}</Button>
        </div>
      </QueryView>

      <DuplicateBulk />
      <DuplicateHistory />
    </div>
  );
}
