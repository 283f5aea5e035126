import { env } from "@/lib/env";
import { getStore } from "@/lib/store";
import { handleWebhookTokenRequest } from "@/lib/webhooks/token-endpoint";

export const dynamic = "force-dynamic";

/** Access tokens for the oauth2 webhook mode (§5.5): see lib/webhooks/token-endpoint.ts. */
export function GET(request: Request): Promise<Response> {
  return handleWebhookTokenRequest(request, { config: env().webhook, store: getStore });
}
