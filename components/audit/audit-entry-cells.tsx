"use client";
import { AppLink } from "@/components/ui/app-link";
import type { AuditEntry } from "@/lib/audit/audit-store";
import type { MessageKey } from "@/lib/i18n/messages";
import { useConsoleHref } from "@/components/shell/console-href";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";

const linkClass = `rounded text-blue-800 underline underline-offset-2 hover:text-blue-950 ${focusRing}`;

const shown = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** An entry's targets: customers linked to their page, by name where the people index knew it. */
export function AuditTargets({ entry }: { entry: AuditEntry }) {
  const href = useConsoleHref();
  if (entry.targets.length === 0) return <span>—</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {entry.targets.map((target) => (
        <li key={`${target.kind}:${target.id}`}>
          {target.kind === "customer" ? (
            <AppLink href={href(`/customers/${target.id}`)} className={linkClass}>
              {target.name ? `${target.name} (${target.id})` : target.id}
            </AppLink>
          ) : (
            <span>
              {target.kind} {target.id}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** An edit's fields: before → after (after alone where the console did not see the record before). */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const changes = Object.entries(entry.changes ?? {});
  if (changes.length === 0) return <span>—</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {changes.map(([field, change]) => (
        <div key={field} className="contents">
          <dt className="font-mono text-slate-700">{field}</dt>
          <dd className="break-all">
            {"before" in change ? (
              <>
                <del className="text-slate-700">{shown(change.before)}</del> → <ins className="no-underline">{shown(change.after)}</ins>
              </>
            ) : (
              shown(change.after)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function AuditOutcome({ entry }: { entry: AuditEntry }) {
  const { t } = useI18n();
  const tone = entry.outcome === "done" ? "text-green-800" : "text-red-800";
  return (
    <span className={tone}>
      {t(`audit.outcome.${entry.outcome}` as MessageKey)}
      {entry.reason ? <span className="block text-xs text-slate-800">{entry.reason}</span> : null}
    </span>
  );
}
