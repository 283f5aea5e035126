"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { EventsBrowser } from "./events-browser";
import { EventsImport } from "./events-import";

/** The Events page: the event browser with "Record an event" (§4.3), then the CSV import (§4.3 batchPushEvents). */
export function EventsPage() {
  const { t } = useI18n();
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <h1 className="text-xl font-semibold text-slate-900">{t("events.title")}</h1>
      <EventsBrowser />
      <EventsImport />
    </div>
  );
}
