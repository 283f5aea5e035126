import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import { focusRing } from "./button";

import { inputClass } from "./input-class";

export { inputClass };

type FieldProps = {
  label: string;
  help?: string;
  error?: string;
  className?: string;
  /** Said before the label to screen readers only: which of several alike groups (`Line 2`) the field is in. */
  srPrefix?: string;
};

/** A labelled control with its help and error text wired up for screen readers. */
function FieldFrame({ label, help, error, className = "", srPrefix, children }: FieldProps & { children: (ids: { id: string; describedBy?: string }) => ReactNode }) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [help ? helpId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {srPrefix && <span className="sr-only">{srPrefix} </span>}
        {label}
      </label>
      {children({ id, describedBy })}
      <FieldNotes id={id} help={help} error={error} />
    </div>
  );
}

/** A field's help and error lines, as `${id}-help` and `${id}-error` (the ids its control's aria-describedby names). */
export function FieldNotes({ id, help, error }: { id: string; help?: ReactNode; error?: ReactNode }) {
  return (
    <>
      {help && (
        <p id={`${id}-help`} className="text-xs text-slate-600">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

export function TextField({ label, help, error, className, srPrefix, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame label={label} help={help} error={error} className={className} srPrefix={srPrefix}>
      {({ id, describedBy }) => <input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} className={inputClass} {...input} />}
    </FieldFrame>
  );
}

export function SelectField({ label, help, error, className, children, ...select }: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame label={label} help={help} error={error} className={className}>
      {({ id, describedBy }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} className={inputClass} {...select}>
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

/** A checkbox with its label, and under it a help or error sentence (`help`, `error`) tied to it. */
export function CheckboxField({ label, help, error, className = "", ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const note = error ?? help;
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input id={id} type="checkbox" aria-describedby={note ? `${id}-help` : undefined} aria-invalid={error ? true : undefined} className={`h-4 w-4 accent-blue-700 ${focusRing}`} {...input} />
        <label htmlFor={id} className="text-sm text-slate-800">
          {label}
        </label>
      </div>
      {note && (
        <p id={`${id}-help`} className={`ml-6 text-xs ${error ? "font-medium text-red-700" : "text-slate-700"}`}>
          {note}
        </p>
      )}
    </div>
  );
}
