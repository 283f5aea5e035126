import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";

/** The routes of what the app keeps for the tenant, and its disconnect (the list: lib/http/app-routes.ts). */

export type TenantDataAnswer = {
  tenantName: string | null;
  isAdmin: boolean;
  installedByName: string | null;
  tables: Array<{ table: string; rows: number }>;
  ended: { reason: string; markedAt: number; deleteAt: number } | null;
};

const dataAnswer = z.object({
  tenantName: z.string().nullable(),
  isAdmin: z.boolean(),
  installedByName: z.string().nullable(),
  tables: z.array(z.object({ table: z.string(), rows: int })),
  ended: z.object({ reason: z.string(), markedAt: int, deleteAt: int }).nullable(),
});

export const tenantOperations = defineOperations({
  "tenant.data": { summary: "What the app keeps for the signed-in tenant: every table holding its rows, with counts", output: answer<TenantDataAnswer>(dataAnswer) },
  "tenant.export": { summary: "Everything the app keeps for the tenant as one JSON file (tokens left out); admin only" },
  "tenant.disconnect": {
    summary: "Disconnects the app from the tenant: forgets its tokens, ends every sign-in, deletes its data; admin only",
    body: z.strictObject({
      confirm: z.literal("DISCONNECT", { error: "type DISCONNECT to confirm" }),
      deleteAuditLog: z.boolean().default(false),
    }),
    output: answer<{ disconnected: true; rowsDeleted: number }>(z.object({ disconnected: z.literal(true), rowsDeleted: int })),
  },
});
