import { env } from "@/lib/env";
import { withDeps } from "@/lib/http/route";
import { getStore } from "@/lib/store";
import { webhookAddressKey } from "@/lib/webhooks/address";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { webhookTopics } from "@/lib/webhooks/topics";

export const dynamic = "force-dynamic";

export const POST = withDeps(receiveWebhook, () => ({
  config: env().webhook,
  store: getStore,
  addressKey: webhookAddressKey(env().sessionPassword),
  topics: webhookTopics(),
}));
