import "server-only";
import { z } from "zod";
import { answer, defineOperations } from "@/lib/http/define-operations";

/** The app's own routes about itself: liveness and the OpenAPI document (the list: lib/http/app-routes.ts). */

export const apiOperations = defineOperations({
  "health": { summary: "Liveness", output: answer<{ status: string; service: string }>(z.object({ status: z.string(), service: z.string() })) },
  "openapi": { summary: "This document: the app's API as OpenAPI 3.1" },
});
