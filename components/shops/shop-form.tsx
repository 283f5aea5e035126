"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import type { ApiError } from "@/lib/http/api-error";
import { problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { MessageKey } from "@/lib/i18n/messages";
import { CATEGORY_SUGGESTIONS, emptyShopForm, normalizeCategory, parseCoordinates, placeShopErrors, REQUIRED_SHOP_FIELDS, shopFormFrom, shopInfoAllOf, validateShopForm, type ShopField, type ShopForm } from "@/lib/shops/shop-form";
import { shopKeys, shopsApi } from "@/lib/shops/shop-queries";
import { shopLabel, type RegisteredShop } from "@/lib/shops/shops-api";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { FormPageHeader, FormSection } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { FieldNotes, inputClass, TextField } from "@/components/ui/field";
import { ShopStatus } from "./shop-status";

/** Loads the register's shop (the platform has no read by id), then the edit form. */
export function ShopEdit({ id }: { id: string }) {
  const { t } = useI18n();
  const shop = useQuery({ queryKey: shopKeys.shop(id), queryFn: ({ signal }) => shopsApi.get(id, signal), staleTime: 0 });
  if (shop.isPending) return <p role="status" className="text-sm text-slate-700">{t("shops.detail.loading")}</p>;
  if (shop.isError) {
    const notFound = (shop.error as ApiError).status === 404;
    return (
      <div className="flex flex-col gap-2">
        <h1 className="text-xl font-semibold text-slate-900">{t("shops.form.editTitle", { name: id })}</h1>
        <p role="alert" className="text-sm text-red-800">{notFound ? t("shops.detail.notFound", { id }) : errorMessage(shop.error, t)}</p>
      </div>
    );
  }
  return <ShopFormView mode="edit" shop={shop.data.shop} />;
}

const TEXT_FIELDS: Record<"business" | "address", ShopField[]> = {
  business: ["sid", "businessName", "branchName"],
  address: ["telephone", "province", "city", "district", "address"],
};

/**
 * The shop form of create (§4.8 POST /v1/stores) and edit (PUT /v1/stores/{id}): `shopInfoAll` as
 * staff think of it, §4.8's required fields checked before sending, the JSON that will be sent
 * shown read-only, the platform's `{error}` answers (§7.5) on their field where they name one,
 * delete behind a confirmation, and a guard against leaving with unsaved changes.
 */
export function ShopFormView({ mode, shop }: { mode: "create" | "edit"; shop?: RegisteredShop }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const queryClient = useQueryClient();
  const original = useMemo(() => (shop ? shopFormFrom(shop.shopInfoAll) : emptyShopForm()), [shop]);
  const form = useForm<ShopForm>({ initial: original, guard: true, validate: (v) => problemTexts(validateShopForm(v), problemText(t, "shops.error")) });
  const { values } = form;
  const [category, setCategory] = useState("");
  const [pasted, setPasted] = useState("");
  const [pasteProblem, setPasteProblem] = useState<string | undefined>();
  const [deleting, setDeleting] = useState(false);
  // One per form: a double click or a retry after an error creates one shop (lib/shops/shop-writes.ts).
  const [requestKey] = useState(() => crypto.randomUUID());
  const listId = useId();
  const name = shop ? (shopLabel(shop) ?? shop.id) : "";

  const set = (patch: Partial<ShopForm>) => form.edit((f) => ({ ...f, ...patch }), ...Object.keys(patch));
  const body = () => ({ shopInfoAll: shopInfoAllOf(values, shop?.shopInfoAll) });
  const done = (saved: RegisteredShop, message: string) => {
    form.reset();
    void queryClient.invalidateQueries({ queryKey: shopKeys.all });
    void queryClient.invalidateQueries({ queryKey: shopKeys.groups });
    toastStore.show("success", message);
    router.push(href("/shops"));
    return saved;
  };
  const onError = (error: ApiError) => {
    const placed = placeShopErrors(error.fieldErrors, error.message);
    if (error.code === "sid_taken") placed.byField.sid = t("shops.error.sidTaken");
    form.fail(error.status === 422 || error.status === 409 ? t("shops.form.refused", { message: error.message }) : errorMessage(error, t), placed);
  };
  const save = useMutation({
    mutationFn: () => (mode === "create" ? shopsApi.create({ requestKey, ...body() }) : shopsApi.update(shop!.id, body())),
    meta: { silent: true },
    onSuccess: ({ shop: saved }) => done(saved, t(mode === "create" ? "shops.form.created" : "shops.form.updated", { name: shopLabel(saved) ?? saved.id })),
    onError,
  });
  const remove = useMutation({
    mutationFn: () => shopsApi.remove(shop!.id),
    meta: { silent: true },
    onSuccess: () => {
      setDeleting(false);
      form.reset();
      queryClient.removeQueries({ queryKey: shopKeys.shop(shop!.id) });
      void queryClient.invalidateQueries({ queryKey: shopKeys.all });
      toastStore.show("success", t("shops.deleted", { name }));
      router.push(href("/shops"));
    },
  });

  const required = (key: ShopField) => REQUIRED_SHOP_FIELDS.includes(key);
  const label = (key: ShopField) => `${t(`shops.field.${key}` as MessageKey)}${required(key) ? " *" : ""}`;
  const help = (key: ShopField) => (["sid", "businessName", "branchName", "photos", "openTime", "avgPrice"].includes(key) ? t(`shops.help.${key}` as MessageKey) : undefined);
  const text = (key: Exclude<ShopField, "categories">, extra: Record<string, unknown> = {}) => (
    <TextField key={key} label={label(key)} help={help(key)} required={required(key)} aria-required={required(key) || undefined} value={values[key]} {...form.field(key)} onChange={(e) => set({ [key]: e.target.value })} {...extra} />
  );
  const addCategory = () => {
    const path = normalizeCategory(category);
    if (!path) return;
    if (!values.categories.includes(path)) set({ categories: [...values.categories, path] });
    setCategory("");
  };
  const applyCoordinates = () => {
    const coords = parseCoordinates(pasted);
    if (!coords) return setPasteProblem(t("shops.coords.pasteInvalid"));
    setPasteProblem(undefined);
    setPasted("");
    set(coords);
  };
  const json = JSON.stringify({ shopInfoAll: JSON.stringify(shopInfoAllOf(values, shop?.shopInfoAll)) }, null, 2);
  const title = mode === "create" ? t("shops.form.newTitle") : t("shops.form.editTitle", { name });

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/shops")} backLabel={t("shops.form.back")} title={title} intro={t("shops.form.intro")} />
      {shop && (
        <p className="text-sm text-slate-800">
          {t("shops.col.id")}: <span className="font-mono">{shop.id}</span> · {t("shops.col.status")}: <ShopStatus shop={shop} />
        </p>
      )}
      {shop && !shop.shopInfoAll && <p className="rounded-md border border-amber-600 bg-amber-50 p-2 text-sm text-amber-950">{t("shops.form.noInfo")}</p>}
      <form noValidate onSubmit={(e) => form.submit(e, () => save.mutate(), () => form.setFormError(t("shops.form.problems")))} className="flex flex-col gap-4" aria-busy={save.isPending}>
        <FormAlert message={form.formError} />
        <FormSection title={t("shops.form.section.business")}>
          <div className="grid gap-3 sm:grid-cols-3">{TEXT_FIELDS.business.map((key) => text(key as Exclude<ShopField, "categories">))}</div>
        </FormSection>
        <FormSection title={t("shops.form.section.address")}>
          <div className="grid gap-3 sm:grid-cols-2">{TEXT_FIELDS.address.map((key) => text(key as Exclude<ShopField, "categories">, key === "telephone" ? { type: "tel" } : {}))}</div>
        </FormSection>

        <FormSection title={t("shops.form.section.categories")}>
          <div className="flex flex-col gap-2" data-field="categories">
            <div className="flex flex-wrap items-end gap-2">
              <TextField
                className="w-72"
                label={t("shops.categories.input")}
                help={t("shops.categories.inputHelp")}
                list={listId}
                value={category}
                error={form.errors.categories}
                onChange={(e) => setCategory(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    addCategory();
                  }
                }}
              />
              <datalist id={listId}>
                {CATEGORY_SUGGESTIONS.map((path) => (
                  <option key={path} value={path} />
                ))}
              </datalist>
              <Button onClick={addCategory}>{t("shops.categories.add")}</Button>
            </div>
            <p className="text-sm font-medium text-slate-800">{t("shops.categories.chosen")}</p>
            {values.categories.length === 0 ? (
              <p className="text-sm text-slate-700">{t("shops.categories.none")}</p>
            ) : (
              <ul className="flex flex-wrap gap-2" data-testid="chosen-categories">
                {values.categories.map((path) => (
                  <li key={path} className="flex items-center gap-1 rounded-full border border-slate-400 bg-slate-50 py-0.5 pr-1 pl-3 text-sm text-slate-900">
                    {path}
                    <button type="button" className={`rounded-full px-2 text-slate-800 hover:bg-slate-200 ${focusRing}`} aria-label={t("shops.categories.remove", { path })} onClick={() => set({ categories: values.categories.filter((c) => c !== path) })}>
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </FormSection>

        <FormSection title={t("shops.form.section.location")} intro={t("shops.coords.note")}>
          <div className="grid gap-3 sm:grid-cols-2">
            {text("longitude", { inputMode: "decimal" })}
            {text("latitude", { inputMode: "decimal" })}
          </div>
          <div className="mt-3 flex flex-wrap items-end gap-2">
            <TextField className="w-72" label={t("shops.coords.paste")} help={t("shops.coords.pasteHelp")} value={pasted} error={pasteProblem} onChange={(e) => setPasted(e.target.value)} />
            <Button onClick={applyCoordinates}>{t("shops.coords.apply")}</Button>
          </div>
        </FormSection>

        <FormSection title={t("shops.form.section.details")}>
          <div className="grid gap-3 sm:grid-cols-2">
            {text("openTime")}
            {text("avgPrice", { inputMode: "decimal" })}
          </div>
          <div className="mt-3 grid gap-3">
            <TextArea label={label("photos")} help={help("photos")} value={values.photos} rows={3} {...form.field("photos")} onChange={(value) => set({ photos: value })} />
            <TextArea label={label("introduction")} value={values.introduction} rows={3} {...form.field("introduction")} onChange={(value) => set({ introduction: value })} />
            <TextArea label={label("recommend")} value={values.recommend} rows={2} {...form.field("recommend")} onChange={(value) => set({ recommend: value })} />
          </div>
        </FormSection>

        <details className="rounded-lg border border-slate-300 bg-white p-4">
          <summary className={`cursor-pointer text-sm font-semibold text-slate-900 ${focusRing}`}>{t("shops.json.summary")}</summary>
          <label className="mt-2 block text-sm text-slate-800" htmlFor={`${listId}-json`}>
            {t("shops.json.label")}
          </label>
          <textarea id={`${listId}-json`} readOnly value={json} rows={12} className={`${inputClass} mt-1 font-mono text-xs`} data-testid="shop-json" />
        </details>

        <div className="flex flex-wrap justify-between gap-2">
          <Button type="submit" variant="primary" disabled={save.isPending} aria-busy={save.isPending || undefined}>
            {save.isPending ? t("shops.form.saving") : t(mode === "create" ? "shops.form.create" : "shops.form.save")}
          </Button>
          {mode === "edit" && (
            <Button variant="danger" onClick={() => setDeleting(true)}>
              {t("shops.delete")}
            </Button>
          )}
        </div>
      </form>
      {shop && (
        <ConfirmDialog open={deleting} title={t("shops.deleteTitle", { name })} onClose={() => setDeleting(false)} cancel={t("shops.keep")} confirm={t("shops.deleteConfirm")} pendingLabel={t("shops.deleting")} onConfirm={() => remove.mutate()} call={remove}>
          <p className="text-sm text-slate-800">{t("shops.deleteBody")}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** A labelled textarea with its help and error (the form's long texts). */
function TextArea({ label, help, error, value, rows, onChange, ...rest }: { label: string; help?: string; error?: string; value: string; rows: number; onChange: (value: string) => void; "data-field"?: string }) {
  const id = useId();
  const describedBy = [help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea id={id} rows={rows} value={value} aria-describedby={describedBy} aria-invalid={error ? true : undefined} className={inputClass} onChange={(e) => onChange(e.target.value)} {...rest} />
      <FieldNotes id={id} help={help} error={error} />
    </div>
  );
}
