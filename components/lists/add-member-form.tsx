"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { idProblem } from "@/lib/batch/member-ids";
import { onlyProblems, placeErrors } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { LazyCustomerPicker as CustomerPicker } from "@/components/search/lazy-customer-picker";
import { Button } from "@/components/ui/button";
import { cachedPerson, PersonName, personText, usePerson } from "@/components/people/person-name";
import { errorMessage } from "@/components/ui/error-message";


const withoutLeadingZeros = (id: string) => id.replace(/^0+(?=\d)/, "");

/** Adds one customer, picked by name or given by id (§4.4 POST /v1/listMembers); the id stays a string (64-bit). */
export function AddMemberForm({ listId }: { listId: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const [added, setAdded] = useState<string | undefined>(undefined);
  const addedPerson = usePerson(added);
  const form = useForm({
    initial: "",
    validate: (value) => {
      const id = value.trim();
      return onlyProblems({ customerId: id === "" ? t("lists.addOne.required") : idProblem(id) && t("lists.ids.invalidOne") });
    },
  });
  const add = usePlatformMutation("listMembers.add", {
    meta: { silent: true },
    onSuccess: (result, sent) => {
      setAdded(result.data.customerId ?? undefined);
      toastStore.show("success", t("lists.addOne.done", { name: personText(result.data.customerId ?? "", cachedPerson(queryClient, result.data.customerId ?? "")) }));
      // Staff may have typed the next id while this one was on its way: keep it.
      form.reset((current) => (withoutLeadingZeros(current.trim()) === sent.body.data.customerId ? "" : current));
    },
    // The failure stands on the field: it is about this one id.
    onError: (error) => {
      const placed = placeErrors(error.fieldErrors, (field) => (field.endsWith("customerId") ? "customerId" : undefined));
      form.fail(null, { byField: { customerId: placed.byField.customerId ?? errorMessage(error, t) }, unplaced: [] });
    },
  });
  const submit = (value: string) => !add.isPending && add.mutate({ body: { data: { customerId: withoutLeadingZeros(value.trim()), listId } } });
  return (
    <form onSubmit={(e) => form.submit(e, submit)} noValidate className="flex flex-col gap-2" aria-labelledby="add-one-title">
      <h3 id="add-one-title" className="text-sm font-semibold text-slate-900">{t("lists.addOne.title")}</h3>
      <div className="flex flex-wrap items-start gap-2">
        <div className="w-80">
          <CustomerPicker
            label={t("lists.customerId")}
            value={form.values}
            {...form.field("customerId")}
            onChange={(id) => {
              form.edit(id, "customerId");
              setAdded(undefined);
            }}
            testId="add-member-picker"
          />
        </div>
        <Button type="submit" variant="primary" className="mt-6" disabled={add.isPending}>
          {add.isPending ? t("lists.adding") : t("lists.addOne.submit")}
        </Button>
      </div>
      {added && (
        <p className="text-sm text-slate-800" role="status">
          {t("lists.addOne.added")} <PersonName id={added} hit={addedPerson} href={href(`/customers/${added}`)} inline />
        </p>
      )}
    </form>
  );
}
