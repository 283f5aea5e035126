import { getStore } from "@/lib/store";
import { handleActivityRequest } from "@/lib/webhooks/activity-endpoint";

export const dynamic = "force-dynamic";

/** What changed since a cursor, for the console's live refresh: see lib/webhooks/activity-endpoint.ts. */
export function GET(request: Request): Promise<Response> {
  return handleActivityRequest(request, { store: getStore });
}
