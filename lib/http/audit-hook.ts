import { processSlot } from "@/lib/process-state";

/**
 * The audit log's door in the route wrapper (and the authorization flow, which answers pages of its
 * own): every write the console makes is handed to the sink that the audit feature installs at
 * start-up (lib/composition.ts), so the wrapper, the proxy and auth import no feature, and a new
 * route or platform operation is audited without code of its own. Without a sink (unit tests, a
 * process that never registered features) nothing is recorded.
 */

export type AuditActor = { id: string; name?: string | null };
export type AuditTarget = { kind: string; id: string; name?: string | null };
export type AuditChange = { before?: unknown; after?: unknown };
export type AuditOutcome = "done" | "refused" | "failed";

/** One write as the wrapper saw it; the sink adds names and writes it down. */
export type AuditDraft = {
  key: { openAppId: string; tenantId: string };
  actor: AuditActor;
  /** The route's name (`refunds.create`) or, through the proxy, the platform operation's (`customers.update`). */
  operation: string;
  method: string;
  /** What the operation is about (its table's resource): names the kind of the ids found in its input. */
  resource: string;
  at: number;
  status: number;
  outcome: AuditOutcome;
  /** The refusal's or failure's code and message (never a token: the error answer's own text). */
  reason?: string;
  requestId: string;
  /** The parsed input: the sink finds the ids in it. */
  input?: unknown;
  /** Targets a handler named itself (they replace the ones found in the input). */
  targets?: AuditTarget[];
  changes?: Record<string, AuditChange>;
  /** The platform's answer, read only when the sink needs it (the record before an edit). */
  answer?: () => unknown;
};

/** What a handler may add to its request's audit entry (`ctx.audit`). */
export type AuditNote = Partial<Pick<AuditDraft, "key" | "actor" | "operation" | "resource" | "input" | "targets" | "changes" | "answer">> & {
  /** Not a change after all (nothing was written). */
  skip?: boolean;
};

export type AuditSink = (draft: AuditDraft) => void;

const slot = processSlot<AuditSink>("audit-sink");

export function setAuditSink(sink: AuditSink | undefined): void {
  slot.set(sink);
}

/** Hands a draft to the sink; never throws (the answer is decided already). */
export function recordAudit(draft: AuditDraft): void {
  const sink = slot.get();
  if (!sink) return;
  try {
    sink(draft);
  } catch {
    // The sink logs its own failures; an audit problem never changes an answer.
  }
}

/** done: 2xx/3xx; refused: 4xx (the app's or the platform's reason); failed: 5xx. */
export function outcomeOf(status: number): AuditOutcome {
  if (status >= 500) return "failed";
  if (status >= 400) return "refused";
  return "done";
}
