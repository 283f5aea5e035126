"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useState } from "react";
import type { ApiError } from "@/lib/http/api-error";
import { placeErrors, problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import { emptyGroupForm, toggleShop, validateGroupForm, type GroupForm } from "@/lib/shops/group-form";
import { shopKeys, shopsApi } from "@/lib/shops/shop-queries";
import { shopLabel, type GroupCreateAnswer, type NamedShopId } from "@/lib/shops/shops-api";
import { FormAlert } from "@/components/forms/form-alert";
import { FormPageHeader, FormSection } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass } from "@/components/ui/button";
import { CheckboxField, TextField } from "@/components/ui/field";
import { errorMessage } from "@/components/ui/error-message";

const GROUP_FIELDS = new Set(["name", "remark", "shopIds"]);
/** A field error's form field: `shopIds.3` is on the shop picker. */
const fieldOf = (field: string) => (GROUP_FIELDS.has(field) ? field : undefined);

/**
 * A new shop group (§4.8): name, remark and shops picked from the register (search and
 * multi-select; picks survive a new search). The platform's answer says which ids it added
 * (`success`) and which not (`failed`): both are shown with the shops' names.
 */
export function GroupCreate() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const form = useForm<GroupForm>({ initial: emptyGroupForm, guard: true, validate: (v) => problemTexts(validateGroupForm(v), problemText(t, "groups.error")) });
  const { values } = form;
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim());
  const query = q ? { q } : {};
  const register = useQuery({ queryKey: shopKeys.list(query), queryFn: ({ signal }) => shopsApi.list(query, signal), placeholderData: keepPreviousData });
  // Names of the picked shops, kept when a new search hides them.
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [result, setResult] = useState<GroupCreateAnswer | undefined>();
  // One per group being made: a double click or a retry after an error creates one group; a new key after it is made.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());

  const create = useMutation({
    mutationFn: (v: GroupForm) => shopsApi.createGroup({ requestKey, name: v.name.trim(), remark: v.remark.trim(), shopIds: v.shopIds }),
    meta: { silent: true },
    onSuccess: (answer) => {
      setRequestKey(crypto.randomUUID());
      form.reset(emptyGroupForm());
      setPicked({});
      setResult(answer);
      void queryClient.invalidateQueries({ queryKey: shopKeys.groups });
    },
    onError: (error: ApiError) => form.fail(errorMessage(error, t), placeErrors(error.fieldErrors, (name) => fieldOf(name.split(".")[0]!))),
  });

  if (result) return <GroupResult result={result} onAnother={() => setResult(undefined)} />;

  const shops = register.data?.shops ?? [];
  const toggle = (id: string, label: string) => {
    form.edit((f) => ({ ...f, shopIds: toggleShop(f.shopIds, id) }), "shopIds");
    setPicked((p) => ({ ...p, [id]: label }));
  };

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/shops/groups")} backLabel={t("groups.title")} title={t("groups.form.title")} intro={t("groups.form.intro")} />
      <form noValidate onSubmit={(e) => form.submit(e, (v) => create.mutate(v), () => form.setFormError(t("groups.form.problems")))} className="flex flex-col gap-4" aria-busy={create.isPending}>
        <FormAlert message={form.formError} />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label={t("groups.form.name")} required aria-required value={values.name} {...form.field("name")} onChange={(e) => form.edit((f) => ({ ...f, name: e.target.value }), "name")} />
          <TextField label={t("groups.form.remark")} required aria-required value={values.remark} {...form.field("remark")} onChange={(e) => form.edit((f) => ({ ...f, remark: e.target.value }), "remark")} />
        </div>
        <FormSection title={t("groups.form.shops")}>
          <div className="flex flex-col gap-2" data-field="shopIds">
            <TextField className="sm:w-80" type="search" label={t("groups.form.search")} help={t("groups.form.searchHelp")} value={search} error={form.errors.shopIds} onChange={(e) => setSearch(e.target.value)} />
            <p className="text-sm font-medium text-slate-800" aria-live="polite" data-testid="group-chosen">
              {t("groups.form.chosen", { count: values.shopIds.length })}
              {values.shopIds.length > 0 && <span className="font-normal text-slate-700"> — {values.shopIds.map((id) => picked[id] || id).join("、")}</span>}
            </p>
            {register.isSuccess && register.data.total === 0 && !q ? (
              <p className="text-sm text-slate-700">{t("groups.form.noShops")}</p>
            ) : shops.length === 0 && register.isSuccess ? (
              <p className="text-sm text-slate-700">{t("groups.form.noMatch")}</p>
            ) : (
              <ul className="flex max-h-72 flex-col gap-1 overflow-y-auto rounded-md border border-slate-300 p-2" aria-label={t("groups.form.shops")} tabIndex={0}>
                {shops.map((shop) => {
                  const label = shopLabel(shop) ?? shop.id;
                  return (
                    <li key={shop.id}>
                      <CheckboxField
                        label={`${label} · ${shop.sid ?? "—"} · ${shop.id}`}
                        checked={values.shopIds.includes(shop.id)}
                        onChange={() => toggle(shop.id, label)}
                      />
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </FormSection>
        <div>
          <Button type="submit" variant="primary" disabled={create.isPending} aria-busy={create.isPending || undefined}>
            {create.isPending ? t("groups.form.creating") : t("groups.form.create")}
          </Button>
        </div>
      </form>
    </div>
  );
}

function IdsTable({ rows, caption, testId }: { rows: NamedShopId[]; caption: string; testId: string }) {
  const { t } = useI18n();
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="py-1 pr-3 font-medium">{t("shops.col.id")}</th>
          <th scope="col" className="py-1 font-medium">{t("shops.col.name")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} className="border-b border-slate-200">
            <td className="py-1 pr-3 font-mono text-xs tabular-nums">{row.id}</td>
            <td className="py-1">{row.name ?? t("shops.unnamed")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the platform answered: the new group, the shops it added and those it did not. */
function GroupResult({ result, onAnother }: { result: GroupCreateAnswer; onAnother: () => void }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const { group, success, failed } = result;
  return (
    <div className="flex flex-col gap-4" data-testid="group-result">
      <FormPageHeader back={href("/shops/groups")} backLabel={t("groups.title")} title={t("groups.result.title", { name: group.name ?? "", id: group.id })} />
      <section aria-labelledby="group-success" className="rounded-lg border border-slate-300 bg-white p-4">
        <h2 id="group-success" className="text-base font-semibold text-slate-900">{t("groups.result.success", { count: success.length })}</h2>
        {success.length > 0 && <IdsTable rows={success} caption={t("groups.result.successCaption")} testId="group-success" />}
      </section>
      {failed.length > 0 && (
        <section aria-labelledby="group-failed" className="rounded-lg border border-red-300 bg-white p-4">
          <h2 id="group-failed" className="text-base font-semibold text-red-800">{t("groups.result.failed", { count: failed.length })}</h2>
          <p className="text-sm text-slate-800">{t("groups.result.failedHelp")}</p>
          <IdsTable rows={failed} caption={t("groups.result.failedCaption")} testId="group-failed" />
        </section>
      )}
      <div className="flex gap-2">
        <AppLink href={href(`/shops/groups/${group.id}`)} className={buttonClass("primary")}>
          {t("groups.result.open")}
        </AppLink>
        <Button onClick={onAnother}>{t("groups.new")}</Button>
      </div>
    </div>
  );
}
