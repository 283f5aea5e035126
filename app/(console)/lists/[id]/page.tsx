import { notFound } from "next/navigation";
import { ListDetail } from "@/components/lists/list-detail";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { countInput, membersInput, membersUrlState } from "@/lib/lists/list-members-state";
import { isPlatformId } from "@/lib/platform/ids";

export const dynamic = "force-dynamic";

/** One list's members and count (§4.4); with a session cookie the first page and count arrive with the HTML. */
export default async function ListPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no list.
  if (!isPlatformId(id)) notFound();
  const query = await searchParams;
  const reads = [
    { name: "listMembers.list", input: membersInput(id, membersUrlState.parse(query)) },
    { name: "listMembers.count", input: countInput(id, { joinedFrom: "", joinedTo: "" }) },
  ] as const;
  return consolePage(query, `/lists/${id}`, reads, <ListDetail id={id} />);
}
