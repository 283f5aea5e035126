import { handleEventImportStart } from "@/lib/events/import-route";
import { importRouteDeps } from "@/lib/events/import-route-deps";
import { withDeps } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleEventImportStart, importRouteDeps);
