import { notFound } from "next/navigation";
import { CustomerEdit } from "@/components/customers/customer-edit";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { customerDetailInputs } from "@/lib/customers/customer-detail-inputs";
import { isPlatformId } from "@/lib/platform/ids";

export const dynamic = "force-dynamic";

export default async function EditCustomerPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no customer.
  if (!isPlatformId(id)) notFound();
  return consolePage(await searchParams, `/customers/${id}/edit`, [{ name: "customers.get", input: customerDetailInputs(id).customer }], <CustomerEdit id={id} />);
}
