import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import { intParam } from "@/lib/platform/schema-helpers";
import { MAX_ACTIVITY_PAGE } from "@/lib/store/webhook-inbox";

/** The webhook receiver's, its token endpoint's and the activity feed's routes with their schemas (the list: lib/http/app-routes.ts). */

export const webhooksOperations = defineOperations({
  "activity.list": {
    summary: "What webhooks said changed for the session's tenant since the cursor, oldest first, with the query keys to invalidate",
    query: z.strictObject({
      after: z.string().regex(/^\d{1,15}$/, "must be an activity id (digits)").optional(),
      limit: intParam(1, MAX_ACTIVITY_PAGE).optional(),
    }),
    output: answer<{ entries: Array<{ id: string; kind: string; resource?: string; resourceId?: string; action?: string }>; cursor: string; staleQueryKeys: Array<readonly [string, ...string[]]> }>(
      z.object({ entries: z.array(z.looseObject({ id: z.string(), kind: z.string() })), cursor: z.string(), staleQueryKeys: z.array(z.array(z.string())) }),
    ),
  },
  "webhooks.receive": { summary: "A platform webhook delivery (§5.5, §6), authenticated in the configured mode and stored once", output: answer<{ received: boolean; duplicate?: boolean }>(z.object({ received: z.boolean(), duplicate: z.boolean().optional() })) },
  "webhooks.token": { summary: "The app's token endpoint of the oauth2 webhook mode (appid, secret, grant_type=client_credentials)", output: answer<{ access_token: string; token_type: string; expires_in: number }>(z.object({ access_token: z.string(), token_type: z.string(), expires_in: int })) },
});
