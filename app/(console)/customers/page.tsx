import { CustomersView } from "@/components/customers/customers-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { countInput, listInput, parseListState, searchParamsOf, TAG_FILTER_INPUT } from "@/lib/customers/customer-list-state";

export const dynamic = "force-dynamic";

/** The customers list; with a session cookie its first page and total arrive with the HTML. */
export default async function CustomersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const state = parseListState(params);
  // The tag filter's choices come with the HTML; a search (box or tag) reads the index in the browser
  // first, so then nothing else is prefetched from the platform.
  const tags = { name: "tags.list", input: TAG_FILTER_INPUT } as const;
  if (searchParamsOf(state)) return consolePage(params, "/customers", [tags], <CustomersView />);
  const count = countInput(state);
  return consolePage(params, "/customers", [{ name: "customers.list", input: listInput(state) }, ...(count ? [{ name: "customers.count" as const, input: count }] : []), tags], <CustomersView />);
}
