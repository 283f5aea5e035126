import "server-only";
import { env } from "@/lib/env";
import { apiRoute, jsonResponse, type RouteDeps } from "@/lib/http/route";
import { appOpenApiDocument } from "./app-openapi";
import { apiOperations } from "./api-operations";

export type OpenApiRouteDeps = RouteDeps & { appUrl?: string };

/** `GET /api/openapi.json`: the app's API (app-openapi.ts), for the app's public URL (not the request's Host). */
export const handleOpenApiRequest = apiRoute<OpenApiRouteDeps, (typeof apiOperations)["openapi"]>({ name: "openapi", scope: "api", operation: apiOperations.openapi }, async ({ deps, requestId }) =>
  jsonResponse(200, JSON.stringify(appOpenApiDocument(deps.appUrl ?? env().appUrl)), requestId),
);
