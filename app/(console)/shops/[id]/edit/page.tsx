import { notFound } from "next/navigation";
import { ShopEdit } from "@/components/shops/shop-form";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { isPlatformId } from "@/lib/platform/ids";

export const dynamic = "force-dynamic";

/** Edit or delete a shop of the register (§4.8 PUT / DELETE /v1/stores/{id}). */
export default async function EditShopPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no shop.
  if (!isPlatformId(id)) notFound();
  return consolePage(await searchParams, `/shops/${id}/edit`, [], <ShopEdit id={id} />);
}
