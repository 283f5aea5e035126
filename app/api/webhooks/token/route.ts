import { env } from "@/lib/env";
import { withDeps } from "@/lib/http/route";
import { getStore } from "@/lib/store";
import { handleWebhookTokenRequest } from "@/lib/webhooks/token-endpoint";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleWebhookTokenRequest, () => ({ config: env().webhook, store: getStore }));
