"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { errorMessage } from "@/components/ui/error-message";

/** The sentence above a form's buttons: what went wrong that is on no field (a message, or a failed call). */
export function FormAlert({ message, error }: { message?: string | null; error?: unknown }) {
  const { t } = useI18n();
  const text = message ?? (error ? errorMessage(error, t) : null);
  if (!text) return null;
  return (
    <p role="alert" data-testid="form-error" className="rounded-md border border-red-300 bg-white p-3 text-sm text-red-800">
      {text}
    </p>
  );
}
