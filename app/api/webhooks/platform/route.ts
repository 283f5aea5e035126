import { env } from "@/lib/env";
import { getStore } from "@/lib/store";
import { receiveWebhook } from "@/lib/webhooks/receive";

export const dynamic = "force-dynamic";

/** The platform's outbound webhooks (§5.5, §6): see lib/webhooks/receive.ts. */
export function POST(request: Request): Promise<Response> {
  return receiveWebhook(request, { config: env().webhook, store: getStore });
}
