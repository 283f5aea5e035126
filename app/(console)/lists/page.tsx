import { ListsView } from "@/components/lists/lists-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { listsInput, listsUrlState } from "@/lib/lists/lists-state";

export const dynamic = "force-dynamic";

/** All lists (§4.4); with a session cookie the first page arrives with the HTML. */
export default async function ListsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  return consolePage(params, "/lists", [{ name: "lists.list", input: listsInput(listsUrlState.parse(params)) }], <ListsView />);
}
