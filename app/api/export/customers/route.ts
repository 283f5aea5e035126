import { handleCustomerExport } from "@/lib/customers/customer-export-route";
import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getSearchService } from "@/lib/search";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleCustomerExport, () => ({ ...proxyDeps(), search: getSearchService }));
