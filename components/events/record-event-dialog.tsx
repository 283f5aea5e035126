"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { isPlatformId } from "@/lib/platform/ids";
import { customerDetailInputs } from "@/lib/customers/customer-detail-inputs";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { CUSTOM_EVENT_CHOICE, emptyRecordEventForm, isCustomForm, isExistingEvent, LOCATION_FIELDS, placeEventErrors, propertyCounts, recordEventRequest, validateRecordEventForm, type PropertyRow, type RecordEventForm } from "@/lib/events/event-record";
import { BUILT_IN_EVENT_TYPES, type DuplicateRule, type PropertyKind } from "@/lib/events/event-fields";
import { problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { toastStore } from "@/lib/ui/toast-store";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";
import { CustomerPicker } from "@/components/search/customer-picker";
import { eventProblemText } from "@/lib/events/event-problem-text";
import { DateTimeField } from "@/components/ui/date-time-field";

const MAIN_FIELDS = ["targetId", "targetName"] as const;
const MORE_FIELDS = ["source", "contentName", "tag", "campaign", "campaignName", "referrer", "summary"] as const;
const RULES: DuplicateRule[] = ["date", "md5", "externalId"];
const KINDS: PropertyKind[] = ["string", "number", "money"];

/**
 * The "Record an event" dialog of a customer (§4.3 POST /v1/customerevents): a built-in type or a
 * custom `c_` id, its fields, typed custom properties counted against §8's 40 / 3 / 10, and the §2.3
 * duplicate rule as an explicit choice. The customer's events refresh (the table's `invalidates`); an
 * answer that is an event the platform already had is said so (`onOutcome`). Loaded on demand by
 * `RecordEvent` (record-event.tsx), so the customer page's first load does not carry the form.
 */
export function RecordEventDialog({ customerId: fixedCustomer, onClose, onOutcome }: { customerId?: string; onClose: () => void; onOutcome: (message: string) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  // Without a customer (the Events page), the dialog asks for one.
  const askCustomer = fixedCustomer === undefined;
  const [chosenCustomer, setChosenCustomer] = useState("");
  const customerProblem = askCustomer ? customerIdProblem(chosenCustomer) : undefined;
  const form = useForm({
    initial: emptyRecordEventForm,
    guard: true,
    validate: (v: RecordEventForm) => ({
      ...(customerProblem ? { customerId: t(customerProblem === "required" ? "eventError.required" : "recordEvent.customerInvalid") } : {}),
      ...problemTexts(validateRecordEventForm(v), (p) => eventProblemText(p, t)),
    }),
  });
  const { values, errors } = form;
  const nextKey = useRef(1);
  const ruleName = useId();
  const record = usePlatformMutation("events.create", { meta: { silent: true } });
  const custom = isCustomForm(values);
  const counts = propertyCounts(values);

  const edit = (patch: Partial<RecordEventForm>, ...keys: string[]) => form.edit((v) => ({ ...v, ...patch }), ...keys);
  const setText = (group: "fields" | "location", field: string, key: string) => (e: { target: { value: string } }) =>
    form.edit((v) => ({ ...v, [group]: { ...v[group], [field]: e.target.value } }), key);
  const setProperty = (key: number, patch: Partial<PropertyRow>) =>
    form.edit((v) => ({ ...v, properties: v.properties.map((p) => (p.key === key ? { ...p, ...patch } : p)) }), ...Object.keys(patch).map((k) => `properties.${key}.${k}`));

  const send = (values: RecordEventForm) => {
    if (record.isPending) return;
    const customerId = fixedCustomer ?? chosenCustomer.trim();
    // The events listed now, to tell a duplicate's answer (the stored event) from a new one (§2.3).
    const listed = queryClient.getQueryData<{ id?: unknown }[]>(platformQuery("events.list", customerDetailInputs(customerId).events).queryKey) ?? [];
    const listedIds = new Set(listed.map((e) => String(e.id)));
    const sentAt = Date.now();
    record.mutate(recordEventRequest(values, customerId), {
      onSuccess: (answer) => {
        const existing = isExistingEvent(answer, listedIds, sentAt);
        const message = t(existing ? "recordEvent.existing" : "recordEvent.recorded", { id: String(answer.id ?? ""), externalId: String(answer.externalId ?? "") });
        onOutcome(message);
        toastStore.show(existing ? "info" : "success", message);
        onClose();
      },
      onError: (error) => {
        // The customer typed in the dialog does not exist (§4.3 create answers 404): said on its field.
        if (askCustomer && error.status === 404) return form.fail(null, { byField: { customerId: t("recordEvent.customerNotFound", { id: customerId }) }, unplaced: [] });
        form.fail(errorMessage(error, t), placeEventErrors(values, error.fieldErrors));
      },
    });
  };

  return (
    <Dialog open title={t("recordEvent.title")} onClose={onClose}>
      <form onSubmit={(e) => form.submit(e, send)} noValidate className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto pr-1" data-testid="record-event-form">
        {askCustomer && (
          <CustomerPicker
            label={`${t("recordEvent.customer")} *`}
            help={t("recordEvent.customerHelp")}
            value={chosenCustomer}
            onChange={(id) => {
              setChosenCustomer(id);
              form.edit((v) => v, "customerId");
            }}
            {...form.field("customerId")}
            testId="record-event-customer"
          />
        )}
        <SelectField label={t("recordEvent.type")} value={values.type} onChange={(e) => edit({ type: e.target.value }, "event")} {...(custom ? {} : form.field("event"))}>
          {BUILT_IN_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`eventType.${type}`)} ({type})
            </option>
          ))}
          <option value={CUSTOM_EVENT_CHOICE}>{t("eventType.custom")}</option>
        </SelectField>
        {custom && (
          <TextField
            label={t("recordEvent.customId")}
            help={t("recordEvent.customIdHelp")}
            value={values.customId}
            onChange={(e) => edit({ customId: e.target.value }, "event")}
            {...form.field("event")}
            maxLength={64}
            spellCheck={false}
          />
        )}
        <div className="grid grid-cols-2 gap-3">
          <DateTimeField label={t("recordEvent.date")} help={t("recordEvent.dateHelp")} value={values.date} onChange={(date) => edit({ date }, "date")} {...form.field("date")} />
          <TextField label={t("recordEvent.score")} inputMode="numeric" value={values.score} onChange={(e) => edit({ score: e.target.value }, "score")} {...form.field("score")} />
          {MAIN_FIELDS.map((f) => (
            <TextField key={f} label={t(`recordEvent.field.${f}`)} value={values.fields[f]} onChange={setText("fields", f, f)} {...form.field(f)} />
          ))}
        </div>
        <details className="rounded-md border border-slate-300 p-2" open={MORE_FIELDS.some((f) => errors[f])}>
          <summary className={`cursor-pointer rounded text-sm font-medium text-slate-900 ${focusRing}`}>{t("recordEvent.more")}</summary>
          <div className="mt-2 grid grid-cols-2 gap-3">
            {MORE_FIELDS.map((f) => (
              <TextField
                key={f}
                className={f === "summary" ? "col-span-2" : undefined}
                label={t(`recordEvent.field.${f}`)}
                help={f === "tag" ? t("recordEvent.tagHelp") : undefined}
                value={values.fields[f]}
                onChange={setText("fields", f, f)}
                {...form.field(f)}
              />
            ))}
          </div>
        </details>
        {custom && (
          <>
            <details className="rounded-md border border-slate-300 p-2" open={LOCATION_FIELDS.some((f) => errors[`location.${f}`])}>
              <summary className={`cursor-pointer rounded text-sm font-medium text-slate-900 ${focusRing}`}>{t("recordEvent.location")}</summary>
              <div className="mt-2 grid grid-cols-2 gap-3">
                {LOCATION_FIELDS.map((f) => (
                  <TextField
                    key={f}
                    label={t(`recordEvent.field.${f}`)}
                    inputMode={f === "longitude" || f === "latitude" ? "decimal" : undefined}
                    value={values.location[f]}
                    onChange={setText("location", f, `location.${f}`)}
                    {...form.field(`location.${f}`)}
                  />
                ))}
              </div>
            </details>
            <fieldset className="flex flex-col gap-2 rounded-md border border-slate-300 p-2" data-testid="event-properties">
              <legend className="px-1 text-sm font-medium text-slate-900">{t("recordEvent.properties")}</legend>
              <p className="text-xs text-slate-700" data-field="properties" tabIndex={-1}>
                {t("recordEvent.propertiesHelp", {
                  string: counts.string.used,
                  stringMax: counts.string.max,
                  number: counts.number.used,
                  numberMax: counts.number.max,
                  money: counts.money.used,
                  moneyMax: counts.money.max,
                })}
              </p>
              {errors.properties && <p className="text-xs font-medium text-red-700">{errors.properties}</p>}
              {values.properties.map((p, i) => (
                <div key={p.key} className="grid grid-cols-[1fr_7rem_1fr_auto] items-start gap-2">
                  <TextField label={t("recordEvent.propertyName", { n: i + 1 })} value={p.name} onChange={(e) => setProperty(p.key, { name: e.target.value })} {...form.field(`properties.${p.key}.name`)} spellCheck={false} />
                  <SelectField label={t("recordEvent.propertyKind", { n: i + 1 })} value={p.kind} onChange={(e) => setProperty(p.key, { kind: e.target.value as PropertyKind })}>
                    {KINDS.map((k) => (
                      <option key={k} value={k}>
                        {t(`eventKind.${k}`)}
                      </option>
                    ))}
                  </SelectField>
                  <TextField
                    label={t("recordEvent.propertyValue", { n: i + 1 })}
                    value={p.value}
                    inputMode={p.kind === "string" ? undefined : p.kind === "number" ? "numeric" : "decimal"}
                    onChange={(e) => setProperty(p.key, { value: e.target.value })}
                    {...form.field(`properties.${p.key}.value`)}
                  />
                  <Button variant="ghost" className="mt-6" aria-label={t("recordEvent.removeProperty", { n: i + 1 })} onClick={() => edit({ properties: values.properties.filter((x) => x.key !== p.key) })}>
                    ×
                  </Button>
                </div>
              ))}
              <div>
                <Button onClick={() => edit({ properties: [...values.properties, { key: nextKey.current++, name: "", kind: "string", value: "" }] })}>{t("recordEvent.addProperty")}</Button>
              </div>
            </fieldset>
          </>
        )}
        <fieldset className="flex flex-col gap-2 rounded-md border border-slate-300 p-2" data-testid="duplicate-rule">
          <legend className="px-1 text-sm font-medium text-slate-900">{t("recordEvent.duplicates")}</legend>
          {RULES.map((rule) => (
            <div key={rule} className="flex items-start gap-2">
              <input
                id={`${ruleName}-${rule}`}
                type="radio"
                name={ruleName}
                value={rule}
                checked={values.duplicateRule === rule}
                onChange={() => edit({ duplicateRule: rule })}
                aria-describedby={`${ruleName}-${rule}-help`}
                className={`mt-1 h-4 w-4 accent-blue-700 ${focusRing}`}
              />
              <div>
                <label htmlFor={`${ruleName}-${rule}`} className="text-sm text-slate-900">
                  {t(`recordEvent.rule.${rule}`)}
                </label>
                <p id={`${ruleName}-${rule}-help`} className="text-xs text-slate-700">
                  {t(`recordEvent.rule.${rule}Help`)}
                </p>
              </div>
            </div>
          ))}
          {values.duplicateRule === "externalId" && (
            <TextField label={t("recordEvent.externalId")} value={values.externalId} onChange={(e) => edit({ externalId: e.target.value }, "externalId")} {...form.field("externalId")} spellCheck={false} />
          )}
        </fieldset>
        <FormAlert message={form.formError} />
        <DialogActions cancel={t("recordEvent.cancel")} onCancel={onClose} confirm={t("recordEvent.submit")} pending={record.isPending} />
      </form>
    </Dialog>
  );
}

/** A customer id typed in the dialog: required, a 64-bit id (§2). */
function customerIdProblem(text: string): "required" | "invalid" | undefined {
  const id = text.trim();
  if (id === "") return "required";
  return isPlatformId(id) ? undefined : "invalid";
}
