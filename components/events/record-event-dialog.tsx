"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import {
  CUSTOM_EVENT_CHOICE,
  emptyRecordEventForm,
  isCustomForm,
  isExistingEvent,
  LOCATION_FIELDS,
  placeEventErrors,
  propertyCounts,
  recordEventRequest,
  validateRecordEventForm,
  type PropertyRow,
  type RecordEventForm,
} from "@/lib/console/event-record";
import { BUILT_IN_EVENT_TYPES, type DuplicateRule, type PropertyKind } from "@/lib/events/event-fields";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import { toastStore } from "@/lib/ui/toast-store";
import { customerActivityInputs } from "@/components/customers/customer-activity";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";
import { eventProblemText } from "./event-problem-text";

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
export function RecordEventDialog({ customerId, onClose, onOutcome }: { customerId: string; onClose: () => void; onOutcome: (message: string) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<RecordEventForm>(emptyRecordEventForm);
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const nextKey = useRef(1);
  const ruleName = useId();
  useUnsavedGuard(dirty);
  const record = usePlatformMutation("events.create", { meta: { silent: true } });
  const custom = isCustomForm(form);
  const counts = propertyCounts(form);

  const edit = (next: RecordEventForm) => {
    setForm(next);
    setDirty(true);
  };
  const setProperty = (key: number, patch: Partial<PropertyRow>) => edit({ ...form, properties: form.properties.map((p) => (p.key === key ? { ...p, ...patch } : p)) });
  const close = () => {
    setDirty(false);
    onClose();
  };
  const focusFirstError = (keys: string[]) =>
    requestAnimationFrame(() => keys.map((k) => document.querySelector<HTMLElement>(`[data-field="${k}"]`)).find(Boolean)?.focus());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problems = validateRecordEventForm(form);
    if (Object.keys(problems).length > 0) {
      setErrors(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, eventProblemText(p, t)])));
      focusFirstError(Object.keys(problems));
      return;
    }
    setErrors({});
    // The events listed now, to tell a duplicate's answer (the stored event) from a new one (§2.3).
    const listed = queryClient.getQueryData<{ id?: unknown }[]>(platformQuery("events.list", customerActivityInputs(customerId).events).queryKey) ?? [];
    const listedIds = new Set(listed.map((e) => String(e.id)));
    const sentAt = Date.now();
    record.mutate(recordEventRequest(form, customerId), {
      onSuccess: (answer) => {
        const values = { id: String(answer.id ?? ""), externalId: String(answer.externalId ?? "") };
        const existing = isExistingEvent(answer, listedIds, sentAt);
        const message = t(existing ? "recordEvent.existing" : "recordEvent.recorded", values);
        onOutcome(message);
        toastStore.show(existing ? "info" : "success", message);
        close();
      },
      onError: (error) => {
        const placed = placeEventErrors(form, error.fieldErrors);
        setErrors(placed.byField);
        setFormError([errorMessage(error, t), ...placed.unplaced].join(" "));
        focusFirstError(Object.keys(placed.byField));
      },
    });
  };

  return (
    <Dialog open title={t("recordEvent.title")} onClose={close}>
      <form onSubmit={onSubmit} noValidate className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto pr-1" data-testid="record-event-form">
        <SelectField label={t("recordEvent.type")} value={form.type} onChange={(e) => edit({ ...form, type: e.target.value })} data-field={custom ? undefined : "event"} error={custom ? undefined : errors.event}>
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
            value={form.customId}
            onChange={(e) => edit({ ...form, customId: e.target.value })}
            error={errors.event}
            data-field="event"
            maxLength={64}
            spellCheck={false}
          />
        )}
        <div className="grid grid-cols-2 gap-3">
          <TextField label={t("recordEvent.date")} help={t("recordEvent.dateHelp")} type="datetime-local" step={1} value={form.date} onChange={(e) => edit({ ...form, date: e.target.value })} error={errors.date} data-field="date" />
          <TextField label={t("recordEvent.score")} inputMode="numeric" value={form.score} onChange={(e) => edit({ ...form, score: e.target.value })} error={errors.score} data-field="score" />
          {MAIN_FIELDS.map((f) => (
            <TextField key={f} label={t(`recordEvent.field.${f}`)} value={form.fields[f]} onChange={(e) => edit({ ...form, fields: { ...form.fields, [f]: e.target.value } })} error={errors[f]} data-field={f} />
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
                value={form.fields[f]}
                onChange={(e) => edit({ ...form, fields: { ...form.fields, [f]: e.target.value } })}
                error={errors[f]}
                data-field={f}
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
                    value={form.location[f]}
                    onChange={(e) => edit({ ...form, location: { ...form.location, [f]: e.target.value } })}
                    error={errors[`location.${f}`]}
                    data-field={`location.${f}`}
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
              {form.properties.map((p, i) => (
                <div key={p.key} className="grid grid-cols-[1fr_7rem_1fr_auto] items-start gap-2">
                  <TextField label={t("recordEvent.propertyName", { n: i + 1 })} value={p.name} onChange={(e) => setProperty(p.key, { name: e.target.value })} error={errors[`properties.${p.key}.name`]} data-field={`properties.${p.key}.name`} spellCheck={false} />
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
                    error={errors[`properties.${p.key}.value`]}
                    data-field={`properties.${p.key}.value`}
                  />
                  <Button variant="ghost" className="mt-6" aria-label={t("recordEvent.removeProperty", { n: i + 1 })} onClick={() => edit({ ...form, properties: form.properties.filter((x) => x.key !== p.key) })}>
                    ×
                  </Button>
                </div>
              ))}
              <div>
                <Button onClick={() => edit({ ...form, properties: [...form.properties, { key: nextKey.current++, name: "", kind: "string", value: "" }] })}>{t("recordEvent.addProperty")}</Button>
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
                checked={form.duplicateRule === rule}
                onChange={() => edit({ ...form, duplicateRule: rule })}
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
          {form.duplicateRule === "externalId" && (
            <TextField label={t("recordEvent.externalId")} value={form.externalId} onChange={(e) => edit({ ...form, externalId: e.target.value })} error={errors.externalId} data-field="externalId" spellCheck={false} />
          )}
        </fieldset>
        {formError && (
          <p className="text-sm font-medium text-red-700" role="alert">
            {formError}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={close}>{t("recordEvent.cancel")}</Button>
          <Button type="submit" variant="primary" disabled={record.isPending}>
            {t("recordEvent.submit")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
