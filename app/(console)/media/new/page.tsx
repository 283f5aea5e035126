import { MediaImportForm } from "@/components/media/media-import-form";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Start a media data import (§4.6 POST /v1/third_party_data/importData). */
export default async function NewMediaImportPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/media/new", [], <MediaImportForm />);
}
