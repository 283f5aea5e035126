"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { itemFailureReason } from "@/components/ui/error-message";
import { PersonName, usePeople } from "@/components/people/person-name";

/**
 * The items a batch could not do: a heading and a scrollable table (focusable, so it scrolls by
 * keyboard, and labelled by the heading's text) of each id, with the customer's label where it is
 * known and differs, and `itemFailureReason`. The caller passes the rows to show (it caps them).
 */
export function FailedItemsTable({ title, heading: Heading, idHeader, reasonHeader, items, labels, testId }: {
  title: string;
  /** The heading's level under the section it sits in. */
  heading: "h2" | "h3" | "h4";
  idHeader: string;
  reasonHeader: string;
  items: readonly { customerId: string; error: unknown }[];
  labels?: ReadonlyMap<string, string>;
  testId: string;
}) {
  const { t } = useI18n();
  const people = usePeople(items.map((item) => item.customerId));
  return (
    <div>
      <Heading className="text-sm font-semibold text-red-800">{title}</Heading>
      <div className="max-h-40 overflow-y-auto" tabIndex={0} aria-label={title}>
        <table className="mt-1 text-left text-xs" data-testid={testId}>
          <thead>
            <tr>
              <th scope="col" className="pr-4 font-semibold text-slate-900">{idHeader}</th>
              <th scope="col" className="font-semibold text-slate-900">{reasonHeader}</th>
            </tr>
          </thead>
          <tbody>
            {items.map(({ customerId, error }) => {
              const label = labels?.get(customerId);
              const person = people.get(customerId);
              return (
                <tr key={customerId}>
                  <td className="pr-4 text-slate-900">
                    {person ? (
                      <PersonName id={customerId} hit={person} inline copy={false} />
                    ) : (
                      <>
                        {label && label !== customerId ? `${label} ` : ""}
                        <span className="font-mono">{customerId}</span>
                      </>
                    )}
                  </td>
                  <td className="text-red-800">{itemFailureReason(error, t)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
