import type { TaskContext } from "./task-types";

/**
 * Tests only: a task's context in memory, with the store's rule for the file: what `append` gives
 * is kept with the next `progress` (or by `finish`, as when `run` returns), so a run that dies
 * between the two loses those bytes and keeps the checkpoint before them. `saved` outlives a run:
 * give it to the next context to resume. `dieAfterProgress`: the Nth progress write fails as a
 * process dying would (nothing of it is stored).
 */
export type SavedTask<C> = { checkpoint?: C; file: Uint8Array; name?: string; progress: Array<{ done: number; total?: number | null; message?: string | null }> };

export function savedTask<C>(): SavedTask<C> {
  return { file: new Uint8Array(), progress: [] };
}

export function fakeTaskContext<I, C>(input: I, saved: SavedTask<C>, options: { dieAfterProgress?: number } = {}) {
  const abort = new AbortController();
  let pending: Uint8Array[] = [];
  let calls = 0;
  const encoder = new TextEncoder();
  const commit = () => {
    const size = pending.reduce((n, c) => n + c.byteLength, saved.file.byteLength);
    const next = new Uint8Array(size);
    next.set(saved.file);
    let at = saved.file.byteLength;
    for (const chunk of pending) {
      next.set(chunk, at);
      at += chunk.byteLength;
    }
    saved.file = next;
    pending = [];
  };
  const ctx = {
    input,
    checkpoint: saved.checkpoint,
    signal: abort.signal,
    now: () => 0,
    async throwIfCancelled() {
      abort.signal.throwIfAborted();
    },
    async progress(update: { done: number; total?: number | null; message?: string | null; checkpoint?: C }) {
      if (options.dieAfterProgress !== undefined && ++calls > options.dieAfterProgress) throw new Error("process died");
      commit();
      saved.progress.push({ done: update.done, total: update.total, message: update.message });
      if (update.checkpoint !== undefined) saved.checkpoint = update.checkpoint;
    },
    file: {
      async begin(name: string) {
        saved.name = name;
        saved.file = new Uint8Array();
        pending = [];
      },
      append(chunk: string | Uint8Array) {
        pending.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      },
      writtenBytes: () => saved.file.byteLength,
    },
  } satisfies Omit<TaskContext<I, C>, "task" | "key">;
  return { ctx, abort, finish: commit, text: () => new TextDecoder().decode(saved.file) };
}
