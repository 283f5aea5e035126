import { notFound } from "next/navigation";
import { CustomerDetail } from "@/components/customers/customer-detail";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { customerDetailReads } from "@/lib/customers/customer-detail-inputs";
import { isPlatformId } from "@/lib/platform/ids";

export const dynamic = "force-dynamic";

/** A customer's detail; with a session cookie every section's first answer arrives with the HTML. */
export default async function CustomerPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no customer.
  if (!isPlatformId(id)) notFound();
  return consolePage(await searchParams, `/customers/${id}`, customerDetailReads(id), <CustomerDetail id={id} />);
}
