import { notFound } from "next/navigation";
import { CustomerDetail } from "@/components/customers/customer-detail";

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no customer.
  if (!/^\d{1,19}$/.test(id)) notFound();
  return <CustomerDetail id={id} />;
}
