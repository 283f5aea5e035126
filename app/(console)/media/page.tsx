import { MediaImportsView } from "@/components/media/media-imports-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** The media imports started through the app (§4.6). */
export default async function MediaImportsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/media", [], <MediaImportsView />);
}
