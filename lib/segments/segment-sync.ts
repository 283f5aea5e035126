import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { PlatformError } from "@/lib/platform/errors";
import { backoffMs } from "@/lib/platform/backoff";
import { patient, REFUSAL_BACKOFF, REFUSAL_WAITS } from "@/lib/search/sync";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { TaskCancelled, type TaskContext } from "@/lib/tasks/task-types";
import { matchesEveryone } from "./segment-conditions";
import { segmentIds } from "./segment-query";
import {
  addToSnapshot,
  getSegment,
  markSynced,
  removeFromSnapshot,
  setSegmentList,
  snapshotIds,
  startRun,
  updateRun,
  KEPT_FAILURES,
  type Actor,
  type SyncFailure,
} from "./segment-store";

/**
 * A segment's sync into a static list (§4.4), as a background task's work: the segment's members
 * now (from the people index) against the membership the last sync wrote (the snapshot), and only
 * the difference sent: `listMembersBatch` for those who joined, `removeFromList` for those who
 * left. The snapshot is written after each call the platform accepted, so:
 * - a second run on an unchanged segment makes no member call (nothing differs);
 * - a run stopped anywhere (restart, outage, cancel) resumes by working out the difference again,
 *   and never sends a customer twice except the one call in flight when it stopped (the platform
 *   keeps one membership per customer and list: the sandbox, and `listMembersBatch`'s answer
 *   of the member record, say so);
 * - a refusal that says "later" (429/503) is waited out by the one backoff rule (`patient`).
 * The run (who, when, added, removed, failed with reasons) is kept in `segment_sync_runs`; the
 * checkpoint carries its id so a resumed task continues the same run.
 */

export const ADD_CHUNK = 500;
/** Ids per `removeFromList` (a query parameter: 200 ids of up to 20 digits stay well inside a URL). */
export const REMOVE_CHUNK = 200;

export type SegmentSyncInput = {
  segmentId: string;
  /** An existing list to sync into (else the segment's own, else a new one named `newListName`). */
  listId?: string;
  newListName?: string;
  /** A segment without conditions holds everyone: synced only when asked twice. */
  confirmEveryone?: boolean;
};

export type SegmentSyncCheckpoint = { runId: string; listId: string; added: number; removed: number; failed: number; memberCalls: number; failures: SyncFailure[] };

export type SegmentSyncResult = { runId: string; listId: string; added: number; removed: number; failed: number; memberCalls: number };

export type SegmentSyncContext = Pick<TaskContext<SegmentSyncInput, SegmentSyncCheckpoint>, "key" | "input" | "checkpoint" | "progress" | "signal" | "now"> & { actor: Actor | null };

export type SegmentSyncDeps = {
  store: Store;
  call: PlatformCall;
  /** The people index's tenant number of an installation (undefined: no index yet). */
  tenantOf: (key: InstallationKey) => Promise<number | undefined>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  addChunk?: number;
  removeChunk?: number;
};

/** Why a sync does not start; the route answers it as a 4xx naming the reason. */
export class SegmentSyncRefused extends Error {
  constructor(readonly reason: "notFound" | "everyone" | "noList" | "noIndex") {
    super(`segment sync refused: ${reason}`);
    this.name = "SegmentSyncRefused";
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * `patient` (429/503 waited out) and, besides, a network failure tried again after the same
 * backoff: every call of the sync may be repeated (a membership is kept once per customer and
 * list, a removal of a non-member does nothing; a list created twice is the one risk, taken
 * because a dropped connection before the answer is far likelier than after it).
 */
async function steady<T>(deps: SegmentSyncDeps, fn: () => Promise<T>): Promise<T> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let retry = 1; ; retry++) {
    try {
      return await patient(deps, fn);
    } catch (error) {
      if (!(error instanceof PlatformError && (error.kind === "network" || error.kind === "timeout")) || retry > REFUSAL_WAITS) throw error;
      await sleep(backoffMs(retry, REFUSAL_BACKOFF, deps.random));
    }
  }
}

const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** A refusal of the items themselves (a 4xx other than 429): splitting the chunk finds the bad ones. */
const itemsRefused = (error: unknown) => error instanceof PlatformError && error.httpStatus !== undefined && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 429 && error.httpStatus !== 401;
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

export async function runSegmentSync(ctx: SegmentSyncContext, deps: SegmentSyncDeps): Promise<SegmentSyncResult> {
  const { store } = deps;
  const { key, input } = ctx;
  const segment = await getSegment(store, key, input.segmentId);
  if (!segment) throw new SegmentSyncRefused("notFound");
  if (matchesEveryone(segment.definition) && !input.confirmEveryone) throw new SegmentSyncRefused("everyone");
  const tenant = await deps.tenantOf(key);
  if (tenant === undefined) throw new SegmentSyncRefused("noIndex");

  // The list: the checkpoint's (a resumed run), the one asked for, the segment's, or a new one.
  let listId = ctx.checkpoint?.listId ?? input.listId ?? segment.listId ?? undefined;
  if (!listId) {
    if (!input.newListName) throw new SegmentSyncRefused("noList");
    const name = input.newListName;
    const created = (await steady(deps, () => deps.call("lists.create", { body: { name } }))) as { id?: unknown };
    if (created.id === undefined || created.id === null) throw new Error("the platform created a list without an id");
    listId = String(created.id);
    await setSegmentList(store, key, segment.id, { id: listId, name }, ctx.now());
  } else if (segment.listId !== listId) {
    await setSegmentList(store, key, segment.id, { id: listId, name: input.listId === listId ? null : segment.listName }, ctx.now());
  }

  const state: SegmentSyncCheckpoint = ctx.checkpoint ?? { runId: await startRun(store, key, segment.id, listId, ctx.actor, ctx.now()), listId, added: 0, removed: 0, failed: 0, memberCalls: 0, failures: [] };
  if (ctx.checkpoint) await updateRun(store, key, state.runId, { state: "running", error: null });

  try {
    const wanted = await segmentIds({ store, tenant, definition: segment.definition, now: ctx.now() });
    const held = await snapshotIds(store, key, segment.id, listId);
    const wantedSet = new Set(wanted);
    const heldSet = new Set(held);
    const toAdd = wanted.filter((id) => !heldSet.has(id)).sort(byId);
    const toRemove = held.filter((id) => !wantedSet.has(id)).sort(byId);
    const total = toAdd.length + toRemove.length;
    let done = 0;
    const save = async (message: string) => {
      await updateRun(store, key, state.runId, { added: state.added, removed: state.removed, failed: state.failed, memberCalls: state.memberCalls, failures: state.failures });
      await ctx.progress({ done, total, message, checkpoint: { ...state, failures: state.failures.slice(0, KEPT_FAILURES) } });
    };
    await ctx.progress({ done, total, message: "Comparing the segment with the list", checkpoint: state });
    const fail = (ids: readonly string[], reason: string) => {
      state.failed += ids.length;
      for (const customerId of ids) if (state.failures.length < KEPT_FAILURES) state.failures.push({ customerId, reason });
    };

    const listIdValue = listId;
    const addPart = async (part: readonly string[]): Promise<void> => {
      try {
        state.memberCalls += 1;
        const answer = (await steady(deps, () => deps.call("listMembers.addBatch", { body: { items: part.map((customerId) => ({ customerId, listId: listIdValue })) } }))) as { items?: Array<{ customerId?: unknown }> };
        const confirmed = new Set((answer.items ?? []).map((m) => String(m.customerId)));
        const added = part.filter((id) => confirmed.has(id));
        await addToSnapshot(store, key, segment.id, listIdValue, added);
        state.added += added.length;
        const missing = part.filter((id) => !confirmed.has(id));
        if (missing.length) fail(missing, "missing from the platform's answer");
      } catch (error) {
        if (itemsRefused(error) && part.length > 1) {
          const half = Math.ceil(part.length / 2);
          await addPart(part.slice(0, half));
          await addPart(part.slice(half));
          return;
        }
        if (!itemsRefused(error)) throw error; // an outage outlasting the backoff: the task tries again later, from the snapshot
        fail(part, reasonOf(error));
      }
    };

    for (const part of chunks(toAdd, deps.addChunk ?? ADD_CHUNK)) {
      if (ctx.signal.aborted) throw new TaskCancelled();
      await addPart(part);
      done += part.length;
      await save("Adding members");
    }
    for (const part of chunks(toRemove, deps.removeChunk ?? REMOVE_CHUNK)) {
      if (ctx.signal.aborted) throw new TaskCancelled();
      state.memberCalls += 1;
      try {
        await steady(deps, () => deps.call("listMembers.removeFromList", { query: { customerIds: part.join(","), listId: listIdValue } }));
        await removeFromSnapshot(store, key, segment.id, listIdValue, part);
        state.removed += part.length;
      } catch (error) {
        if (!itemsRefused(error)) throw error;
        fail(part, reasonOf(error));
      }
      done += part.length;
      await save("Removing members who left");
    }
    const finishedAt = ctx.now();
    await updateRun(store, key, state.runId, { state: "done", finishedAt, added: state.added, removed: state.removed, failed: state.failed, memberCalls: state.memberCalls, failures: state.failures });
    await markSynced(store, key, segment.id, finishedAt);
    return { runId: state.runId, listId, added: state.added, removed: state.removed, failed: state.failed, memberCalls: state.memberCalls };
  } catch (error) {
    await updateRun(store, key, state.runId, { state: "failed", error: reasonOf(error), added: state.added, removed: state.removed, failed: state.failed, memberCalls: state.memberCalls, failures: state.failures }).catch(() => undefined);
    throw error;
  }
}
