import { env } from "@/lib/env";
import { withDeps } from "@/lib/http/route";
import { getSearchService } from "@/lib/search";
import { getStore } from "@/lib/store";
import { webhookAddressKey } from "@/lib/webhooks/address";
import { receiveWebhook } from "@/lib/webhooks/receive";

export const dynamic = "force-dynamic";

export const POST = withDeps(receiveWebhook, () => ({
  config: env().webhook,
  store: getStore,
  addressKey: webhookAddressKey(env().sessionPassword),
  onStored: (delivery) => getSearchService().onDelivery(delivery),
}));
