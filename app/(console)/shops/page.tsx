import { ShopsView } from "@/components/shops/shops-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** The app's register of shops (§4.8 lists none); the data comes from the app's own route. */
export default async function ShopsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/shops", [], <ShopsView />);
}
