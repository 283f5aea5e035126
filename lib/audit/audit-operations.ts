import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import { parsePlatformTime } from "@/lib/time";
import { AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS, type AuditEntry } from "./audit-store";

/** The audit log's routes with their schemas (the list: lib/http/app-routes.ts). */

const utcTime = z
  .string()
  .refine((v) => parsePlatformTime(v) !== undefined, "must be a UTC time YYYY-MM-DDTHH:MM:SS")
  .meta({ description: "UTC, YYYY-MM-DDTHH:MM:SS" });

const filters = {
  actor: z.string().max(128).optional().meta({ description: "staff key" }),
  operation: z.string().max(64).optional(),
  outcome: z.enum(["done", "refused", "failed"]).optional(),
  target: z.string().regex(/^\d{1,20}$/, "must be an id (digits)").optional().meta({ description: "an id the entry names (a customer's trail)" }),
  from: utcTime.optional(),
  to: utcTime.optional(),
};

export const auditListQuery = z.strictObject({
  ...filters,
  before: z.string().regex(/^\d{1,20}$/, "must be an entry id").optional().meta({ description: "keyset: the last id of the previous page" }),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

const target = z.object({ kind: z.string(), id: z.string(), name: z.string().nullish() });
const entry = z.object({
  id: z.string(),
  at: int,
  actorId: z.string(),
  actorName: z.string().nullable(),
  operation: z.string(),
  method: z.string(),
  outcome: z.enum(["done", "refused", "failed"]),
  status: int,
  reason: z.string().nullable(),
  requestId: z.string(),
  targets: z.array(target),
  changes: z.record(z.string(), z.object({ before: z.unknown().optional(), after: z.unknown().optional() })).nullable(),
});

export type AuditListAnswer = {
  entries: AuditEntry[];
  next: string | null;
  facets: { actors: Array<{ id: string; name: string | null }>; operations: string[] };
};

export type AuditSettings = { retentionDays: number; defaultDays: number; minDays: number; maxDays: number };

const settings = z.object({ retentionDays: int, defaultDays: int, minDays: int, maxDays: int });

export const auditOperations = defineOperations({
  "audit.list": {
    summary: "The tenant's audit log, newest first, filtered; keyset paging (`next` → `before`)",
    query: auditListQuery,
    output: answer<AuditListAnswer>(z.object({ entries: z.array(entry), next: z.string().nullable(), facets: z.object({ actors: z.array(z.object({ id: z.string(), name: z.string().nullable() })), operations: z.array(z.string()) }) })),
  },
  "audit.export": { summary: "The filtered audit log as CSV (UTF-8 with BOM; times in UTC+8)", query: z.strictObject({ ...filters, lang: z.enum(["en", "zh-CN"]).optional() }) },
  "audit.settings": { summary: "The audit log's retention", output: answer<AuditSettings>(settings) },
  "audit.settingsPut": {
    summary: "Sets the audit log's retention in days",
    body: z.strictObject({ retentionDays: z.number().int().min(AUDIT_RETENTION_MIN_DAYS).max(AUDIT_RETENTION_MAX_DAYS) }),
    output: answer<AuditSettings>(settings),
  },
});
