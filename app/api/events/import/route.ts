import { handleEventImport } from "@/lib/events/import-route";
import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleEventImport, proxyDeps);
