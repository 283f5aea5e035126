"use client";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { idProblem } from "@/lib/console/member-ids";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";

const withoutLeadingZeros = (id: string) => id.replace(/^0+(?=\d)/, "");

/** Adds one customer by id (§4.4 POST /v1/listMembers); the id stays a string (64-bit). */
export function AddMemberForm({ listId }: { listId: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const [value, setValue] = useState("");
  const [touched, setTouched] = useState(false);
  const [added, setAdded] = useState<string | undefined>(undefined);
  const add = usePlatformMutation("listMembers.add", {
    meta: { silent: true },
    onSuccess: (result, sent) => {
      setAdded(result.data.customerId ?? undefined);
      toastStore.show("success", t("lists.addOne.done", { id: result.data.customerId ?? "" }));
      // Staff may have typed the next id while this one was on its way: keep it.
      setValue((current) => (withoutLeadingZeros(current.trim()) === sent.body.data.customerId ? "" : current));
      setTouched(false);
    },
  });
  const id = value.trim();
  const problem = id === "" ? "required" : idProblem(id);
  const fieldError =
    (touched && problem ? t(problem === "required" ? "lists.addOne.required" : "lists.ids.invalidOne") : undefined) ??
    add.error?.fieldErrors.find((f) => f.field.endsWith("customerId"))?.message ??
    (add.error ? errorMessage(add.error, t) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || add.isPending) return;
    add.mutate({ body: { data: { customerId: withoutLeadingZeros(id), listId } } });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2" aria-labelledby="add-one-title">
      <h3 id="add-one-title" className="text-sm font-semibold text-slate-900">{t("lists.addOne.title")}</h3>
      <div className="flex flex-wrap items-start gap-2">
        <TextField
          className="w-72"
          label={t("lists.customerId")}
          inputMode="numeric"
          autoComplete="off"
          value={value}
          error={fieldError}
          onChange={(e) => {
            setValue(e.target.value);
            setAdded(undefined);
            if (add.error) add.reset();
          }}
          name="customerId"
        />
        <Button type="submit" variant="primary" className="mt-6" disabled={add.isPending}>
          {add.isPending ? t("lists.adding") : t("lists.addOne.submit")}
        </Button>
      </div>
      {added && (
        <p className="text-sm text-slate-800" role="status">
          {t("lists.addOne.added")}{" "}
          <Link href={href(`/customers/${added}`)} className={`rounded font-medium text-blue-800 underline ${focusRing}`}>
            {added}
          </Link>
        </p>
      )}
    </form>
  );
}
