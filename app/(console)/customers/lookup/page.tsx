import { Md5Lookup } from "@/components/customers/md5-lookup";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { md5LookupInput, md5LookupUrlState } from "@/lib/customers/md5-lookup";

export const dynamic = "force-dynamic";

/** Find a customer by an MD5 identity (§4.1); a linked `?md5value=` is looked up with the HTML. */
export default async function Md5LookupPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const input = md5LookupInput(md5LookupUrlState.parse(params));
  return consolePage(params, "/customers/lookup", input ? [{ name: "identities.getByMd5", input }] : [], <Md5Lookup />);
}
