import { HydrationBoundary } from "@tanstack/react-query";
import { ComingSoon } from "@/components/shell/coming-soon";
import { prefetchForPage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";

export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const session = await consolePageSession(await searchParams, "/orders");
  return <HydrationBoundary state={await prefetchForPage(session)}><ComingSoon section="nav.orders" /></HydrationBoundary>;
}
