import { TagsView } from "@/components/tags/tags-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { dimensionsInput, tagsInput, tagsUrlState } from "@/lib/tags/tags-state";

export const dynamic = "force-dynamic";

/** Tag dimensions and tags (§2.6, §4.5); with a session cookie both first answers arrive with the HTML. */
export default async function TagsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const state = tagsUrlState.parse(params);
  return consolePage(params, "/tags", [{ name: "tags.list", input: tagsInput(state) }, { name: "tagDimensions.list", input: dimensionsInput(state) }], <TagsView />);
}
