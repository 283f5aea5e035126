import { EventsPage } from "@/components/events/events-page";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Browsing and recording customer events (§4.3), and importing them from CSV (§4.3 batchPushEvents). */
export default async function Page({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/events", [], <EventsPage />);
}
