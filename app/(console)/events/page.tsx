import { EventsImport } from "@/components/events/events-import";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Importing customer events from CSV (§4.3 batchPushEvents); no data to prefetch besides the shell's session. */
export default async function Page({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/events", [], <EventsImport />);
}
