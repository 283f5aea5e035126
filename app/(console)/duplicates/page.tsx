import { DuplicatesView } from "@/components/duplicates/duplicates-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Likely duplicate customers: the review queue, bulk merge of one rule, and the history. */
export default async function DuplicatesPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/duplicates", [], <DuplicatesView />);
}
