import { CustomerCreate } from "@/components/customers/customer-create";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Create a customer with identities (§4.1); nothing to prefetch besides the shell's session. */
export default async function NewCustomerPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/customers/new", [], <CustomerCreate />);
}
