"use client";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";
import { PersonName, usePeople } from "@/components/people/person-name";

/**
 * A folded list of the customers a batch did, each named from the people index (the id where the
 * index has no name), each a link to the customer with `linked`. The names are looked up when the
 * list is opened.
 */
export function IdDetails({ summary, ids, linked = false, testId }: { summary: string; ids: readonly string[]; linked?: boolean; testId: string }) {
  const href = useConsoleHref();
  const people = usePeople(ids);
  return (
    <details>
      <summary className={`cursor-pointer rounded text-sm text-slate-900 ${focusRing}`}>{summary}</summary>
      <ul className="mt-1 flex max-h-32 flex-wrap gap-x-4 gap-y-1 overflow-y-auto text-sm text-slate-900" data-testid={testId}>
        {ids.map((id) => (
          <li key={id}>
            <PersonName id={id} hit={people.get(id)} href={linked ? href(`/customers/${id}`) : undefined} inline copy={false} />
          </li>
        ))}
      </ul>
    </details>
  );
}
