import { HydrationBoundary } from "@tanstack/react-query";
import { EventsImport } from "@/components/events/events-import";
import { prefetchForPage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";

export const dynamic = "force-dynamic";

/** Importing customer events from CSV (§4.3 batchPushEvents); no data to prefetch besides the shell's session. */
export default async function Page({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const session = await consolePageSession(await searchParams, "/events");
  return <HydrationBoundary state={await prefetchForPage(session)}><EventsImport /></HydrationBoundary>;
}
