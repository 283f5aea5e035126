"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import type { Pair } from "@/lib/duplicates/clusters";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { MergeCompare } from "@/components/customers/merge-compare";
import { Button, focusRing } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";

type Side = "a" | "b";

/**
 * One candidate pair side by side (the merge review's table, differing fields marked), with each
 * customer's identities, tags and order statistics read live from the platform; staff choose the
 * survivor and merge, say "not the same person", or skip.
 */
export function DuplicateReview({
  pair,
  busy,
  error,
  onMerge,
  onDismiss,
  onSkip,
}: {
  pair: Pair;
  busy: boolean;
  error: unknown;
  onMerge: (fromId: string, toId: string) => void;
  onDismiss: () => void;
  onSkip: () => void;
}) {
  const { t } = useI18n();
  // The older customer (the smaller id) survives unless staff choose the other.
  const [survivor, setSurvivor] = useState<Side>("a");
  const a = useQuery(platformQuery("customers.get", { params: { id: pair.a } }));
  const b = useQuery(platformQuery("customers.get", { params: { id: pair.b } }));
  const ids = `${pair.a},${pair.b}`;
  const identities = useQuery(platformQuery("identities.list", { query: { customerIds: ids } }));
  const tags = useQuery(platformQuery("customerTags.get", { query: { customerId: ids } }));
  const stats = useQuery(platformQuery("customers.statistics", { query: { customerIds: ids } }));

  const idOf = (side: Side) => (side === "a" ? pair.a : pair.b);
  const identitiesOf = (id: string) =>
    (identities.data ?? []).filter((i) => String(i.customerId) === id).map((i) => `${String(i.identityType ?? "")}: ${String(i.identityValue ?? "")}`);
  const tagsOf = (id: string) => (tags.data?.[id] ?? "").split(",").filter(Boolean);
  const ordersOf = (id: string) => {
    const row = (stats.data?.items ?? []).find((s) => String(s.customerId) === id);
    return row?.orderTotal === undefined || row?.orderTotal === null ? null : String(row.orderTotal);
  };

  return (
    <section aria-labelledby="duplicate-review-title" className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4" data-testid="duplicate-review">
      <h2 id="duplicate-review-title" className="text-base font-semibold text-slate-900">
        {t("duplicates.reviewTitle", { a: pair.a, b: pair.b })}
      </h2>
      <p className="text-sm text-slate-800" data-testid="duplicate-reasons">
        {t("duplicates.foundBy")} {pair.rules.map((r) => t(`duplicates.rule.${r}` as MessageKey)).join(" · ")} ({t("duplicates.score", { score: pair.score })})
      </p>
      {a.data && b.data ? (
        <MergeCompare left={a.data} right={b.data} leftLabel={t("duplicates.customer", { id: pair.a })} rightLabel={t("duplicates.customer", { id: pair.b })} testId="duplicate-compare" />
      ) : a.isError || b.isError ? (
        <FormAlert error={a.error ?? b.error} />
      ) : (
        <p className="text-sm text-slate-700" role="status">{t("duplicates.loadingPair")}</p>
      )}
      <table className="w-full text-left text-sm" data-testid="duplicate-extras">
        <tbody>
          {(
            [
              ["duplicates.identities", (id: string) => identitiesOf(id).join(", ")],
              ["duplicates.tags", (id: string) => tagsOf(id).join(", ")],
              ["duplicates.orders", (id: string) => ordersOf(id)],
            ] as const
          ).map(([label, value]) => (
            <tr key={label} className="border-b border-slate-100">
              <th scope="row" className="w-1/4 py-1 pr-2 font-normal text-slate-700">{t(label)}</th>
              <td className="py-1 pr-2 break-all">{value(pair.a) || "—"}</td>
              <td className="py-1 pr-2 break-all">{value(pair.b) || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 font-medium text-slate-800">{t("duplicates.survivor")}</legend>
        {(["a", "b"] as const).map((side) => (
          <label key={side} className="flex items-center gap-2">
            <input type="radio" name="duplicate-survivor" className={`h-4 w-4 accent-blue-700 ${focusRing}`} checked={survivor === side} onChange={() => setSurvivor(side)} />
            {t("duplicates.keep", { id: idOf(side) })}
          </label>
        ))}
      </fieldset>
      <p className="text-xs text-slate-700">{t("duplicates.mergeNote")}</p>
      <FormAlert error={error} />
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" disabled={busy} onClick={() => onMerge(idOf(survivor === "a" ? "b" : "a"), idOf(survivor))}>
          {t("duplicates.merge", { from: idOf(survivor === "a" ? "b" : "a"), to: idOf(survivor) })}
        </Button>
        <Button disabled={busy} onClick={onDismiss}>
          {t("duplicates.notSame")}
        </Button>
        <Button disabled={busy} onClick={onSkip}>
          {t("duplicates.skip")}
        </Button>
      </div>
    </section>
  );
}
