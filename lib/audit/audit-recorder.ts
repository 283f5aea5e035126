import "server-only";
import { backoffMs } from "@/lib/platform/backoff";
import type { AuditChange, AuditDraft, AuditTarget } from "@/lib/http/audit-hook";
import { lookupIndexed } from "@/lib/search/index-store";
import { findTenant } from "@/lib/search/tenant-state";
import type { Store } from "@/lib/store";
import { appendAuditEntries, type AuditEntryInput } from "./audit-store";

/**
 * The audit sink (lib/http/audit-hook.ts) over the app's store. A draft becomes an entry after the
 * answer went out, off the request's path: the ids its input names become targets (customers get
 * their names from the people index), an edit's sent fields its changes (with the record before,
 * where the platform answered it). Written in batches a moment after the first draft of each
 * (`BATCH_DELAY_MS`): the store work (a synchronous transaction on SQLite) would otherwise run before
 * the answer's bytes leave and cost every write (44 % of a proxied edit's p50, measured by
 * scripts/bench/audit-cost.ts). A failed write is tried again with back-off and kept in memory
 * meanwhile, so a store hiccup loses nothing; `flush()` writes what waits at once and waits for every
 * entry handed in so far (tests, shutdown, a disconnect).
 */

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

export type AuditRecorder = {
  record(draft: AuditDraft): void;
  /** Resolves when every entry handed in so far is written (or given up on after the retries). */
  flush(): Promise<void>;
};

const MAX_ATTEMPTS = 8;
/** How long the first draft of a batch waits for others (and for its request's answer to go out). */
export const BATCH_DELAY_MS = 25;
const RETRY = { baseMs: 200, maxMs: 30_000, jitter: 0.5 };

export function createAuditRecorder(deps: { store: () => Promise<Store>; log: Log; sleep?: (ms: number) => Promise<void> }): AuditRecorder {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.()));
  let queue: AuditDraft[] = [];
  let running: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, 100);
      queue = queue.slice(batch.length);
      let entries: AuditEntryInput[] | undefined;
      for (let attempt = 1; ; attempt++) {
        try {
          const store = await deps.store();
          entries ??= await Promise.all(batch.map((draft) => entryOf(store, draft)));
          await appendAuditEntries(store, entries);
          break;
        } catch (error) {
          const err = error instanceof Error ? error.message : String(error);
          if (attempt >= MAX_ATTEMPTS) {
            // The last resort: the entries themselves in the log (no token is ever in a draft).
            deps.log.error({ err, entries: entries ?? batch.map(({ answer: _answer, input: _input, ...rest }) => rest) }, "audit entries could not be written");
            break;
          }
          deps.log.warn({ err, attempt }, "audit write failed; trying again");
          await sleep(backoffMs(attempt, RETRY));
        }
      }
    }
  }

  const kick = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    running ??= Promise.resolve()
      .then(drain)
      .finally(() => {
        running = undefined;
        // Entries handed in while the last write was finishing: the next batch.
        if (queue.length > 0) schedule();
      });
  };
  const schedule = () => {
    if (running || timer) return;
    timer = setTimeout(kick, BATCH_DELAY_MS);
    timer.unref?.();
  };

  return {
    record(draft) {
      queue.push(draft);
      schedule();
    },
    async flush() {
      for (;;) {
        if (timer) kick();
        if (!running) return;
        await running;
      }
    },
  };
}

const ID = /^\d{1,20}$/;

/** A resource's name as a target kind: `customers` → `customer`. */
const singular = (resource: string) => (resource.endsWith("s") ? resource.slice(0, -1) : resource);

/**
 * The ids a write's input names, as targets: `id`, `fromId` / `toId` (the operation's own kind),
 * `customerId`, `customerIds`, `shopIds`, `orderNo` (their own), at any depth of the input.
 */
export function targetsOf(input: unknown, resource: string): AuditTarget[] {
  const found = new Map<string, AuditTarget>();
  const add = (kind: string, value: unknown) => {
    const id = typeof value === "number" || typeof value === "bigint" ? String(value) : value;
    if (typeof id === "string" && (ID.test(id) || kind === "order")) found.set(`${kind}:${id}`, { kind, id });
  };
  const walk = (value: unknown, depth: number) => {
    if (depth > 4 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 1000)) walk(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const match = /^(.*?)(Id|Ids|No)$/.exec(key);
      if (key === "id" || (match && ["from", "to", "group", ""].includes(match[1]!))) {
        const kind = key === "groupId" ? "storeGroup" : singular(resource);
        for (const one of Array.isArray(item) ? item : [item]) add(kind, one);
      } else if (match) {
        const kind = match[1] === "order" ? "order" : match[1]!.replace(/s$/, "");
        for (const one of Array.isArray(item) ? item.slice(0, 1000) : [item]) add(kind, one);
      } else walk(item, depth + 1);
    }
  };
  walk(input, 0);
  return [...found.values()].slice(0, 200);
}

const plainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A value as kept in the log: its JSON cut to 500 characters. */
function kept(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 500 ? `${text.slice(0, 499)}…` : value;
}

/**
 * An edit's changes: each field of a replacement's body, with its value before where the record
 * before is known (the platform's answer); a field whose value did not change is left out.
 */
export function changesOf(draft: Pick<AuditDraft, "method" | "input" | "changes" | "answer" | "outcome">): Record<string, AuditChange> | null {
  if (draft.changes) return draft.changes;
  if (draft.method !== "PUT") return null;
  const body = plainObject(draft.input) ? draft.input.body : undefined;
  if (!plainObject(body)) return null;
  let before: Record<string, unknown> | undefined;
  if (draft.answer && draft.outcome === "done") {
    try {
      const answer = draft.answer();
      if (plainObject(answer)) before = answer;
    } catch {
      // An answer that does not parse gives no "before".
    }
  }
  const changes: Record<string, AuditChange> = {};
  for (const [field, after] of Object.entries(body).slice(0, 100)) {
    if (before && field in before && JSON.stringify(before[field]) === JSON.stringify(after)) continue;
    changes[field] = before ? { before: kept(before[field] ?? null), after: kept(after) } : { after: kept(after) };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

async function entryOf(store: Store, draft: AuditDraft): Promise<AuditEntryInput> {
  const targets = draft.targets ?? targetsOf(draft.input, draft.resource);
  const customers = targets.filter((t) => t.kind === "customer" && !t.name).map((t) => t.id);
  if (customers.length > 0) {
    const tenant = await findTenant(store, draft.key);
    if (tenant) {
      const names = new Map((await lookupIndexed(store, tenant.tenant, customers)).map((hit) => [hit.id, hit.displayName || hit.name || hit.nickName || hit.email || hit.mobile]));
      for (const target of targets) if (target.kind === "customer" && !target.name && names.get(target.id)) target.name = names.get(target.id)!;
    }
  }
  return {
    key: draft.key,
    at: draft.at,
    actorId: draft.actor.id,
    actorName: draft.actor.name ?? null,
    operation: draft.operation,
    method: draft.method,
    outcome: draft.outcome,
    status: draft.status,
    reason: draft.reason ?? null,
    requestId: draft.requestId,
    targets,
    changes: changesOf(draft),
  };
}
