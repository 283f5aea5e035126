import { notFound } from "next/navigation";
import { GroupDetail } from "@/components/shops/group-detail";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { isPlatformId } from "@/lib/platform/ids";

export const dynamic = "force-dynamic";

/** A shop group read from the platform (§4.8 GET /v1/storesGroups/{groupId}), also for groups the app has not seen. */
export default async function ShopGroupPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  if (!isPlatformId(id)) notFound();
  return consolePage(await searchParams, `/shops/groups/${id}`, [], <GroupDetail id={id} />);
}
