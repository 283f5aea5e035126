import { CustomerCreate } from "@/components/customers/customer-create";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";

export const dynamic = "force-dynamic";

/** Create a customer with identities (§4.1); nothing to prefetch. */
export default async function NewCustomerPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  await consolePageSession(await searchParams, "/customers/new");
  return <CustomerCreate />;
}
