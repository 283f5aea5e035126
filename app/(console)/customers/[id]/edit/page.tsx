import { HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { CustomerEdit } from "@/components/customers/customer-edit";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { customerDetailInputs } from "@/lib/console/customer-detail-inputs";

export const dynamic = "force-dynamic";

export default async function EditCustomerPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no customer.
  if (!/^\d{1,19}$/.test(id)) notFound();
  const session = await consolePageSession(await searchParams, `/customers/${id}/edit`);
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [prefetchPlatform(queryClient, s, "customers.get", customerDetailInputs(id).customer)]);
  return (
    <HydrationBoundary state={dehydrated}>
      <CustomerEdit id={id} />
    </HydrationBoundary>
  );
}
