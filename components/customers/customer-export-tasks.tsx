"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { TaskPanel } from "@/components/tasks/task-panel";

/** The kind of the export's background task (lib/customers/customer-export-route.ts). */
const KINDS = ["customers.export"] as const;

/** The tenant's recent exports: progress, who started each, Stop, Download while the file is kept. */
export function CustomerExportTasks() {
  const { t } = useI18n();
  return <TaskPanel kinds={KINDS} label={() => t("customerExport.taskLabel")} testId="customer-export-tasks" limit={3} />;
}
