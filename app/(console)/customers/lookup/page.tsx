import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { Md5Lookup } from "@/components/customers/md5-lookup";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { md5LookupInput, parseMd5Lookup } from "@/lib/console/md5-lookup";
import { toUrlParams } from "@/lib/console/url-params";

export const dynamic = "force-dynamic";

/** Find a customer by an MD5 identity (§4.1); a linked `?md5value=` is looked up with the HTML. */
export default async function Md5LookupPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const session = await consolePageSession(params, "/customers/lookup");
  const input = md5LookupInput(parseMd5Lookup(toUrlParams(params)));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => (input ? [prefetchPlatform(queryClient, s, "identities.getByMd5", input)] : []));
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <Md5Lookup />
      </Suspense>
    </HydrationBoundary>
  );
}
