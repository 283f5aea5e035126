"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { isMd5NotFound, MD5_TYPES, md5LookupInput, md5LookupUrlState, md5ValueProblem, normalizeMd5, type Md5Type } from "@/lib/customers/md5-lookup";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useUrlState } from "@/lib/hooks/use-url-state";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";
import { personText, usePerson } from "@/components/people/person-name";
import { TimeText } from "@/components/ui/time-text";

const text = (v: unknown) => (v === null || v === undefined || v === "" ? "—" : String(v));

/**
 * Find a customer by an MD5 identity (§4.1 getCustomerIdentityByMd5; §2.2 MD5 identities are kept
 * apart from ordinary ones). The looked-up pair is in the URL; "not found" (§7.2 409200) is said
 * in words, other failures get the error and a retry.
 */
export function Md5Lookup() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const [state, setState] = useUrlState(md5LookupUrlState);
  const [md5type, setMd5type] = useState<Md5Type>(state.md5type);
  const [md5value, setMd5value] = useState(state.md5value);
  const [problem, setProblem] = useState<string | undefined>();
  const input = md5LookupInput(state);
  const found = useQuery({ ...platformQuery("identities.getByMd5", input ?? { query: { md5type: "common", md5value: "" } }), enabled: input !== undefined });
  const slow = useDelayedFlag(input !== undefined && found.isFetching);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const p = md5ValueProblem(md5value);
    setProblem(p ? t(p === "required" ? "customerEdit.error.required" : "md5.error.notMd5") : undefined);
    if (p) return;
    const next = { md5type, md5value: normalizeMd5(md5value) };
    // The same lookup again asks the platform again (someone may have just added the identity).
    if (input && next.md5type === state.md5type && next.md5value === normalizeMd5(state.md5value)) void found.refetch();
    else setState(next);
  };

  const identity = found.data;
  const customerId = identity ? String(identity.customerIdStr ?? identity.customerId ?? "") : "";
  const person = usePerson(customerId || undefined);
  return (
    <div className="flex flex-col gap-4">
      <AppLink href={href("/customers")} className={`text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
        ← {t("detail.back")}
      </AppLink>
      <h1 className="text-xl font-semibold text-slate-900">{t("md5.title")}</h1>
      <p className="max-w-3xl text-sm text-slate-700">{t("md5.intro")}</p>
      <form noValidate onSubmit={onSubmit} className="flex flex-wrap items-start gap-3 rounded-lg border border-slate-300 bg-white p-4">
        <SelectField label={t("md5.type")} value={md5type} onChange={(e) => setMd5type(e.target.value as Md5Type)} className="w-48">
          {MD5_TYPES.map((type) => (
            <option key={type} value={type}>{t(`md5.type.${type}` as MessageKey)}</option>
          ))}
        </SelectField>
        <TextField
          label={t("md5.value")}
          help={t("md5.valueHelp")}
          value={md5value}
          error={problem}
          onChange={(e) => setMd5value(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          className="min-w-64 flex-1"
        />
        <Button type="submit" variant="primary" className="mt-6">
          {t("md5.find")}
        </Button>
      </form>

      <div aria-live="polite" data-testid="md5-result">
        {!input ? null : found.isPending ? (
          <p role="status" className="text-sm text-slate-700">{slow ? t("md5.searching") : ""}</p>
        ) : found.isError ? (
          isMd5NotFound(found.error) ? (
            <p className="rounded-lg border border-slate-300 bg-white p-4 text-sm text-slate-900" data-testid="md5-not-found">
              {t("md5.notFound")}
            </p>
          ) : (
            <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
              <p className="text-sm text-slate-900">{errorMessage(found.error, t)}</p>
              <Button className="mt-3" onClick={() => void found.refetch()}>{t("error.retry")}</Button>
            </div>
          )
        ) : (
          <section aria-labelledby="md5-found" className="rounded-lg border border-slate-300 bg-white p-4" data-testid="md5-found">
            <h2 id="md5-found" className="text-base font-semibold text-slate-900">{t("md5.found")}</h2>
            <dl className="mt-2 grid grid-cols-1 gap-x-6 sm:grid-cols-2">
              {(
                [
                  ["md5.field.customerId", customerId],
                  ["md5.field.type", text(identity?.type)],
                  ["md5.field.value", text(identity?.value)],
                  ["md5.field.md5type", text(identity?.md5type)],
                  ["md5.field.md5value", text(identity?.md5value)],
                ] as const
              ).map(([key, value]) => (
                <div key={key} className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
                  <dt className="text-slate-700">{t(key)}</dt>
                  <dd className="text-right font-mono break-all text-slate-900">{value}</dd>
                </div>
              ))}
              <div className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
                <dt className="text-slate-700">{t("md5.field.dateCreated")}</dt>
                <dd className="text-slate-900"><TimeText value={identity?.dateCreated ?? null} /></dd>
              </div>
            </dl>
            {customerId && (
              <AppLink href={href(`/customers/${customerId}`)} className={`${buttonClass("secondary")} mt-3`}>
                {t("md5.openCustomer", { name: personText(customerId, person) })}
              </AppLink>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
