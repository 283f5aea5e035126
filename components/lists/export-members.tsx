"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { CustomerExportButton } from "@/components/customers/customer-export";
import { CustomerExportTasks } from "@/components/customers/customer-export-tasks";

/**
 * The list's members as a CSV file: the customers export (the same columns and format as the
 * customers page), its ids read from the list (§4.4), its rows live from the platform, as a
 * background task with its progress and download beside it.
 */
export function ExportMembers({ listId }: { listId: string }) {
  const { t } = useI18n();
  return (
    <section aria-label={t("lists.exportMembers")} className="flex flex-col items-end gap-2" data-testid="list-export">
      {/* The customers list's default state ("" in the URL): its default columns. */}
      <CustomerExportButton list="" listId={listId} label={t("lists.exportMembers")} />
      <CustomerExportTasks />
    </section>
  );
}
