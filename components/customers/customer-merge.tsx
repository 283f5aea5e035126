"use client";
import { useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { mergeByIdentitiesRequest, mergeByIdRequest, remainingCustomerId, sameCustomer, validateMerge, type MergeMode, type MergeSide } from "@/lib/customers/customer-merge";
import { problemText, problemTexts, type FieldErrors } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { Customer } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { FormPageHeader } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { CustomerPicker } from "@/components/search/customer-picker";
import { personText } from "@/components/people/person-name";
import { MergeCompare } from "./merge-compare";

type Review = { from: Customer; to: Customer };
type MergeForm = { mode: MergeMode; from: MergeSide; to: MergeSide };

/**
 * Merge two customers (§4.1): by id or by identities. Both customers are looked up and shown side
 * by side before the merge is confirmed; the report names the customer that remains.
 */
export function CustomerMerge({ initialFromId = "" }: { initialFromId?: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const form = useForm<MergeForm>({
    initial: { mode: "id", from: { id: initialFromId, identityType: "", identityValue: "" }, to: { id: "", identityType: "", identityValue: "" } },
    validate: (v) => problemTexts(validateMerge(v.mode, v.from, v.to), problemText(t, "customerMerge.error")),
  });
  const { mode, from, to } = form.values;
  const [review, setReview] = useState<Review | null>(null);
  const [looking, setLooking] = useState(false);
  const [report, setReport] = useState<{ fromId: string; toId: string; from: string; to: string } | null>(null);

  const onDone = (result: unknown) => {
    const remaining = remainingCustomerId(result) ?? String(review?.to.id);
    // Named from the records read for the review: the merged-away customer is gone from the index.
    const from = personText(String(review?.from.id), review?.from);
    const to = personText(remaining, remaining === String(review?.to.id) ? review?.to : undefined);
    setReport({ fromId: String(review?.from.id), toId: remaining, from, to });
    setReview(null);
    // The merged-away customer no longer exists: the form forgets it (the remaining one stays chosen),
    // and so does the cache, so nothing offers it again.
    form.reset((v) => ({ ...v, from: { id: "", identityType: "", identityValue: "" }, to: v.mode === "id" ? { ...v.to, id: remaining } : v.to }));
    if (review) queryClient.removeQueries({ queryKey: platformQuery("customers.get", { params: { id: String(review.from.id) } }).queryKey });
    toastStore.show("success", t("customerMerge.toast", { from, to }));

  };
  const byId = usePlatformMutation("customers.mergeById", { meta: { silent: true }, onSuccess: onDone });
  const byIdentities = usePlatformMutation("customers.mergeByIdentities", { meta: { silent: true }, onSuccess: onDone });
  const merging = byId.isPending || byIdentities.isPending;

  const fetchCustomer = (id: string) => queryClient.fetchQuery({ ...platformQuery("customers.get", { params: { id } }), staleTime: 0 });
  const resolve = async (side: MergeSide): Promise<string | undefined> => {
    if (mode === "id") return side.id.trim();
    const found = await queryClient.fetchQuery({
      ...platformQuery("identities.list", { query: { identityType: side.identityType.trim(), identityValue: side.identityValue.trim() } }),
      staleTime: 0,
    });
    const id = found[0]?.customerId;
    return id === undefined || id === null ? undefined : String(id);
  };

  const lookUp = async () => {
    setReport(null);
    byId.reset();
    byIdentities.reset();
    const key = (side: "from" | "to") => `${side}.${mode === "id" ? "id" : "identityValue"}`;
    setLooking(true);
    try {
      const [fromId, toId] = await Promise.all([resolve(from), resolve(to)]);
      const missing: FieldErrors = {};
      for (const [side, id] of [["from", fromId], ["to", toId]] as const) if (!id) missing[key(side)] = t("customerMerge.error.noCustomer");
      if (Object.keys(missing).length > 0) return form.fail(null, { byField: missing, unplaced: [] });
      if (sameCustomer(fromId, toId)) return form.fail(null, { byField: { [key("to")]: t("customerMerge.error.same") }, unplaced: [] });
      const [a, b] = await Promise.all([fetchCustomer(fromId!), fetchCustomer(toId!)]);
      setReview({ from: a, to: b });
    } catch (error) {
      form.fail(errorMessage(error, t));
    } finally {
      setLooking(false);
    }
  };

  const confirm = () => {
    if (!review) return;
    if (mode === "id") byId.mutate(mergeByIdRequest(String(review.from.id), String(review.to.id)));
    else byIdentities.mutate(mergeByIdentitiesRequest(from, to));
  };

  const sideFields = (side: "from" | "to") => {
    const value = form.values[side];
    const input = (part: keyof MergeSide, label: string) => (
      <TextField label={label} inputMode={part === "id" ? "numeric" : undefined} help={part === "identityType" ? t("customerMerge.typeHelp") : undefined} value={value[part]}
        {...form.field(`${side}.${part}`)} onChange={(e) => form.edit((v) => ({ ...v, [side]: { ...v[side], [part]: e.target.value } }), `${side}.${part}`)} />
    );
    return (
      <fieldset className="flex flex-1 flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4">
        <legend className="px-1 text-base font-semibold text-slate-900">{t(`customerMerge.${side}`)}</legend>
        <p className="text-xs text-slate-700">{t(`customerMerge.${side}Help`)}</p>
        {mode === "id" ? (
          <CustomerPicker label={t(`customerMerge.${side}Id`)} value={value.id} testId={`merge-${side}`} {...form.field(`${side}.id`)}
            onChange={(id) => form.edit((v) => ({ ...v, [side]: { ...v[side], id } }), `${side}.id`)} />
        ) : (
          <>
            {input("identityType", t(`customerMerge.${side}Type`))}
            {input("identityValue", t(`customerMerge.${side}Value`))}
          </>
        )}
      </fieldset>
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/customers")} backLabel={t("detail.back")} title={t("customerMerge.title")} intro={t("customerMerge.intro")} />

      {report && (
        <div role="status" data-testid="merge-report" className="rounded-lg border border-green-700 bg-green-50 p-4 text-sm text-slate-900">
          <p className="font-medium">{t("customerMerge.report", { from: report.from, to: report.to })}</p>
          <AppLink href={href(`/customers/${report.toId}`)} className={`mt-2 inline-block text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.outcome.open")}
          </AppLink>
        </div>
      )}

      <form noValidate onSubmit={(e) => form.submit(e, lookUp)} className="flex flex-col gap-4">
        <FormAlert message={form.formError} />
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="mb-1 font-medium text-slate-800">{t("customerMerge.mode")}</legend>
          {(["id", "identity"] as const).map((m) => (
            <label key={m} className="flex items-center gap-2">
              <input type="radio" name="merge-mode" className={`h-4 w-4 accent-blue-700 ${focusRing}`} checked={mode === m} onChange={() => form.edit((v) => ({ ...v, mode: m }))} />
              {t(m === "id" ? "customerMerge.byId" : "customerMerge.byIdentity")}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-col gap-4 md:flex-row">
          {sideFields("from")}
          {sideFields("to")}
        </div>
        <div>
          <Button type="submit" variant="primary" disabled={looking}>
            {looking ? t("customerMerge.looking") : t("customerMerge.review")}
          </Button>
        </div>
      </form>

      <Dialog open={review !== null} role="alertdialog" title={t("customerMerge.confirmTitle")} onClose={() => setReview(null)}>
        {review && (
          <>
            <p className="text-sm">{t("customerMerge.confirmBody", { from: personText(String(review.from.id), review.from), to: personText(String(review.to.id), review.to) })}</p>
            <MergeCompare left={review.from} right={review.to} leftLabel={t("customerMerge.fromShort")} rightLabel={t("customerMerge.toShort")} />
            <FormAlert error={byId.error ?? byIdentities.error} />
            <DialogActions cancel={t("customerEdit.cancel")} onCancel={() => setReview(null)} variant="danger" confirm={t("customerMerge.confirm")} pending={merging} onConfirm={confirm} />
          </>
        )}
      </Dialog>
    </div>
  );
}
