import { handleOpenApiRequest } from "@/lib/openapi/openapi-route";
import { withDeps } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleOpenApiRequest, {});
