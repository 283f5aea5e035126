import { handleEventImport } from "@/lib/events/import-route";
import { proxyDeps } from "@/lib/platform/proxy-deps";

/** Several batchPushEvents batches of the /events import per request; all logic is in lib/events/import-route.ts. */
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handleEventImport(request, proxyDeps());
}
