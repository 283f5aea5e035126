"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import {
  mergeByIdentitiesRequest,
  mergeByIdRequest,
  remainingCustomerId,
  sameCustomer,
  validateMerge,
  type MergeMode,
  type MergeProblem,
  type MergeSide,
} from "@/lib/console/customer-merge";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import type { Customer } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { TimeText } from "@/components/ui/time-text";

const COMPARE_FIELDS = ["id", "name", "nickName", "mobile", "email", "stage", "source", "company", "dateCreated"] as const;

function mergeProblemText(p: MergeProblem, t: Translate): string {
  return t(`customerMerge.error.${p.code}` as MessageKey, { max: p.max ?? 0 });
}

type Review = { from: Customer; to: Customer };

/**
 * Merge two customers (§4.1): by id or by identities. Both customers are looked up and shown side
 * by side before the merge is confirmed; the report names the customer that remains.
 */
export function CustomerMerge({ initialFromId = "" }: { initialFromId?: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<MergeMode>("id");
  const [from, setFrom] = useState<MergeSide>({ id: initialFromId, identityType: "", identityValue: "" });
  const [to, setTo] = useState<MergeSide>({ id: "", identityType: "", identityValue: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [review, setReview] = useState<Review | null>(null);
  const [looking, setLooking] = useState(false);
  const [report, setReport] = useState<{ fromId: string; toId: string } | null>(null);

  const onDone = (result: unknown) => {
    const remaining = remainingCustomerId(result) ?? String(review?.to.id);
    setReport({ fromId: String(review?.from.id), toId: remaining });
    setReview(null);
    toastStore.show("success", t("customerMerge.toast", { from: String(review?.from.id), to: remaining }));
  };
  const byId = usePlatformMutation("customers.mergeById", { meta: { silent: true }, onSuccess: onDone });
  const byIdentities = usePlatformMutation("customers.mergeByIdentities", { meta: { silent: true }, onSuccess: onDone });
  const merging = byId.isPending || byIdentities.isPending;
  const mergeError = byId.error ?? byIdentities.error;

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

  const onReview = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setReport(null);
    byId.reset();
    byIdentities.reset();
    const problems = validateMerge(mode, from, to);
    setErrors(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, mergeProblemText(p, t)])));
    if (Object.keys(problems).length > 0) return;
    setLooking(true);
    try {
      const [fromId, toId] = await Promise.all([resolve(from), resolve(to)]);
      const missing: Record<string, string> = {};
      if (!fromId) missing[mode === "id" ? "from.id" : "from.identityValue"] = t("customerMerge.error.noCustomer");
      if (!toId) missing[mode === "id" ? "to.id" : "to.identityValue"] = t("customerMerge.error.noCustomer");
      if (Object.keys(missing).length > 0) return setErrors(missing);
      if (sameCustomer(fromId, toId)) return setErrors({ [mode === "id" ? "to.id" : "to.identityValue"]: t("customerMerge.error.same") });
      const [a, b] = await Promise.all([fetchCustomer(fromId!), fetchCustomer(toId!)]);
      setReview({ from: a, to: b });
    } catch (error) {
      setFormError(errorMessage(error, t));
    } finally {
      setLooking(false);
    }
  };

  const confirm = () => {
    if (!review) return;
    if (mode === "id") byId.mutate(mergeByIdRequest(String(review.from.id), String(review.to.id)));
    else byIdentities.mutate(mergeByIdentitiesRequest(from, to));
  };

  const sideFields = (side: "from" | "to", value: MergeSide, set: (v: MergeSide) => void) => (
    <fieldset className="flex flex-1 flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">{t(side === "from" ? "customerMerge.from" : "customerMerge.to")}</legend>
      <p className="text-xs text-slate-700">{t(side === "from" ? "customerMerge.fromHelp" : "customerMerge.toHelp")}</p>
      {mode === "id" ? (
        <TextField label={t(side === "from" ? "customerMerge.fromId" : "customerMerge.toId")} inputMode="numeric" value={value.id} error={errors[`${side}.id`]} onChange={(e) => set({ ...value, id: e.target.value })} />
      ) : (
        <>
          <TextField
            label={t(side === "from" ? "customerMerge.fromType" : "customerMerge.toType")}
            help={t("customerMerge.typeHelp")}
            value={value.identityType}
            error={errors[`${side}.identityType`]}
            onChange={(e) => set({ ...value, identityType: e.target.value })}
          />
          <TextField
            label={t(side === "from" ? "customerMerge.fromValue" : "customerMerge.toValue")}
            value={value.identityValue}
            error={errors[`${side}.identityValue`]}
            onChange={(e) => set({ ...value, identityValue: e.target.value })}
          />
        </>
      )}
    </fieldset>
  );

  return (
    <div className="flex flex-col gap-4">
      <Link href={href("/customers")} className={`text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
        ← {t("detail.back")}
      </Link>
      <h1 className="text-xl font-semibold text-slate-900">{t("customerMerge.title")}</h1>
      <p className="text-sm text-slate-700">{t("customerMerge.intro")}</p>

      {report && (
        <div role="status" data-testid="merge-report" className="rounded-lg border border-green-700 bg-green-50 p-4 text-sm text-slate-900">
          <p className="font-medium">{t("customerMerge.report", { from: report.fromId, to: report.toId })}</p>
          <Link href={href(`/customers/${report.toId}`)} className={`mt-2 inline-block text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.outcome.open")}
          </Link>
        </div>
      )}

      <form noValidate onSubmit={(e) => void onReview(e)} className="flex flex-col gap-4">
        {formError && (
          <div role="alert" className="rounded-md border border-red-300 bg-white p-3 text-sm text-red-800">
            {formError}
          </div>
        )}
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="mb-1 font-medium text-slate-800">{t("customerMerge.mode")}</legend>
          {(["id", "identity"] as const).map((m) => (
            <label key={m} className="flex items-center gap-2">
              <input type="radio" name="merge-mode" className={`h-4 w-4 accent-blue-700 ${focusRing}`} checked={mode === m} onChange={() => setMode(m)} />
              {t(m === "id" ? "customerMerge.byId" : "customerMerge.byIdentity")}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-col gap-4 md:flex-row">
          {sideFields("from", from, setFrom)}
          {sideFields("to", to, setTo)}
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
            <p className="text-sm">{t("customerMerge.confirmBody", { from: String(review.from.id), to: String(review.to.id) })}</p>
            <table className="w-full text-left text-sm" data-testid="merge-compare">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-1 font-semibold"><span className="sr-only">{t("customerMerge.field")}</span></th>
                  <th scope="col" className="py-1 font-semibold">{t("customerMerge.fromShort")}</th>
                  <th scope="col" className="py-1 font-semibold">{t("customerMerge.toShort")}</th>
                </tr>
              </thead>
              <tbody>
                {COMPARE_FIELDS.map((field) => (
                  <tr key={field} className="border-b border-slate-100">
                    <th scope="row" className="py-1 pr-2 font-normal text-slate-700">{t(`field.${field}` as MessageKey)}</th>
                    {[review.from, review.to].map((c, i) => {
                      const v = (c as Record<string, unknown>)[field];
                      return (
                        <td key={i} className="py-1 pr-2 break-all">
                          {field === "dateCreated" ? <TimeText value={typeof v === "string" ? v : null} /> : v === null || v === undefined || v === "" ? "—" : String(v)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
            {mergeError && (
              <p role="alert" className="text-sm text-red-800">
                {errorMessage(mergeError, t)}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Button onClick={() => setReview(null)}>{t("customerEdit.cancel")}</Button>
              <Button variant="danger" disabled={merging} onClick={confirm}>
                {t("customerMerge.confirm")}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </div>
  );
}
