import "server-only";
import { logger } from "@/lib/log";
import { processValue } from "@/lib/process-state";
import { getStore } from "@/lib/store";
import { createAuditRecorder, type AuditRecorder } from "./audit-recorder";

/** The process's audit recorder over the app's store (one per process, lib/process-state.ts). */
export function auditRecorder(): AuditRecorder {
  return processValue("audit-recorder", () => createAuditRecorder({ store: getStore, log: logger().child({ scope: "audit" }) }));
}
