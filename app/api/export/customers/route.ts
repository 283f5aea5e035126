import { handleCustomerExport } from "@/lib/console/customer-export-route";
import { proxyDeps } from "@/lib/platform/proxy-deps";

/** The customers list's current filter as CSV, streamed; all logic is in lib/console/customer-export*.ts. */
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handleCustomerExport(request, proxyDeps());
}
