import "server-only";
import { z } from "zod";
import { answer, defineOperations, idParams, int, nullableText, requestKey } from "@/lib/http/define-operations";
import { isPlatformId } from "@/lib/platform/ids";
import { operations } from "@/lib/platform/operations";
import { SHOP_SORTS, SHOP_STATES, type AddKnownAnswer, type GroupCreateAnswer, type GroupListAnswer, type GroupReadAnswer, type ShopAnswer, type ShopListAnswer } from "./shops-api";

/** The shop and shop group routes with their schemas (the list: lib/http/app-routes.ts). */

const registeredShop = z.object({
  id: z.string(),
  sid: nullableText,
  businessName: nullableText,
  branchName: nullableText,
  shopName: nullableText,
  shopStatus: nullableText,
  refuseReason: nullableText,
  shopInfoAll: nullableText,
  source: z.enum(["created", "updated", "group", "manual"]),
  seenAt: int.nullable(),
  updatedAt: int,
});
const rememberedGroup = z.object({
  id: z.string(),
  name: nullableText,
  remark: nullableText,
  origin: z.enum(["created", "opened"]),
  createdByName: nullableText,
  shopCount: int.nullable(),
  createdAt: int,
  readAt: int.nullable(),
});
const namedShopId = z.object({ id: z.string(), name: nullableText });

/**
 * §4.8 `shopInfoAll` (the object, or its JSON text), checked with the platform's own schema; a
 * problem inside it is named by its field (`shopInfoAll.business.base_info.sid`), where the form puts it.
 */
const platformShopBody = operations["stores.create"].body!;

/** `keyed`: a creation, which may carry the dialog's `requestKey` beside the shop. */
function shopBody(keyed: boolean) {
  return z
    .unknown()
    .transform((value, ctx): { shopInfoAll: string; requestKey?: string } => {
      let rest = value;
      let key: string | undefined;
      if (keyed && value && typeof value === "object" && !Array.isArray(value) && "requestKey" in value) {
        const { requestKey: given, ...others } = value as Record<string, unknown>;
        const checkedKey = requestKey.safeParse(given);
        if (!checkedKey.success) {
          ctx.addIssue({ code: "custom", path: ["requestKey"], message: checkedKey.error.issues[0]!.message });
          return z.NEVER;
        }
        key = checkedKey.data;
        rest = others;
      }
      const checked = platformShopBody.safeParse(rest);
      if (checked.success) return { ...(checked.data as { shopInfoAll: string }), ...(key ? { requestKey: key } : {}) };
      for (const issue of checked.error.issues) {
        const inner = /^(business\.base_info\.[\w.]+): (.*)$/.exec(issue.message);
        if (inner) ctx.addIssue({ code: "custom", path: ["shopInfoAll", ...inner[1]!.split(".")], message: inner[2]! });
        else ctx.addIssue({ ...issue, path: issue.path } as never);
      }
      return z.NEVER;
    })
    .meta({
      type: "object",
      required: ["shopInfoAll"],
      properties: {
        shopInfoAll: { description: "the §4.8 shop, `{business: {base_info}}`, as an object or its JSON text", type: ["object", "string"] },
        ...(keyed ? { requestKey: { description: "the dialog's idempotency key: the same key twice is one shop", type: "string", pattern: "^[A-Za-z0-9_-]{8,64}$" } } : {}),
      },
    });
}
const shopWrite = shopBody(false);
const shopCreate = shopBody(true);

export const shopsOperations = defineOperations({
  "shops.list": {
    summary: "The tenant's shop register (the platform lists no shops, §4.8)",
    query: z.object({ q: z.string().max(200).optional(), sort: z.enum(SHOP_SORTS).optional(), order: z.enum(["asc", "desc"]).optional(), state: z.enum(SHOP_STATES).optional() }),
    output: answer<ShopListAnswer>(z.object({ shops: z.array(registeredShop), total: int })),
  },
  "shops.create": { summary: "Records, creates on the platform (§4.8), then registers a shop; the same requestKey twice is one shop", body: shopCreate, statuses: [201], output: answer<ShopAnswer>(z.object({ shop: registeredShop })) },
  "shops.get": { summary: "The register's shop (the platform has no read by id)", params: idParams, output: answer<ShopAnswer>(z.object({ shop: registeredShop })) },
  "shops.update": { summary: "Replaces a shop on the platform (§4.8), then registers it", params: idParams, body: shopWrite, output: answer<ShopAnswer>(z.object({ shop: registeredShop })) },
  "shops.delete": { summary: "Deletes a shop on the platform (§4.8, §7.5), then forgets it", params: idParams, output: answer<{ deleted: string }>(z.object({ deleted: z.string() })) },
  "shops.addKnown": {
    summary: "A shop id staff add by hand (read later through a group); 200 when it was known already",
    statuses: [200, 201],
    body: z.strictObject({ id: z.string().trim().refine(isPlatformId, "must be a shop id (digits)") }),
    output: answer<AddKnownAnswer>(z.object({ shop: registeredShop, added: z.boolean() })),
  },
  "shopGroups.list": { summary: "The groups the app created or opened", output: answer<GroupListAnswer>(z.object({ groups: z.array(rememberedGroup) })) },
  "shopGroups.create": {
    summary: "Creates a shop group on the platform (§4.8) and names the ids it answered",
    statuses: [201],
    body: z.strictObject({
      requestKey: requestKey.optional(),
      name: z.string().trim().min(1, "is required").max(255, "at most 255 characters"),
      remark: z.string().trim().min(1, "is required").max(1000, "at most 1000 characters"),
      shopIds: z.array(z.string().trim().refine(isPlatformId, "must be shop ids (digits)")).min(1, "pick at least one shop").max(500, "at most 500 shops"),
    }),
    output: answer<GroupCreateAnswer>(z.object({ group: rememberedGroup, success: z.array(namedShopId), failed: z.array(namedShopId) })),
  },
  "shopGroups.get": { summary: "A group's shops read from the platform (§4.8), which refresh the register", params: idParams, output: answer<GroupReadAnswer>(z.object({ group: rememberedGroup, shops: z.array(registeredShop) })) },
});
