import { SegmentsView } from "@/components/segments/segments-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Segments: saved audiences over the people index (README "Segments"). */
export default async function SegmentsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  return consolePage(params, "/segments", [], <SegmentsView />);
}
