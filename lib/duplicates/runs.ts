import "server-only";
import { TaskCancelled, type TaskProgress } from "@/lib/tasks/task-types";

/**
 * The finder's background runs (the whole-tenant pass, a bulk merge) in this process: one of each
 * kind per tenant at a time, with progress, a stop and the result. The work itself takes a
 * TaskContext-shaped object (lib/tasks/task-types.ts), so moving it onto the app's task service is
 * a matter of wrapping it in `defineTask`.
 */

export type RunKind = "scan" | "bulk";
export type RunState = "running" | "done" | "failed" | "cancelled";

export type RunView = {
  id: string;
  kind: RunKind;
  state: RunState;
  progress: TaskProgress;
  input: unknown;
  result: unknown;
  error: string | null;
  startedBy: string | null;
  startedAt: number;
  finishedAt: number | null;
};

export type RunContext<I, C> = {
  task: { id: string };
  input: I;
  checkpoint: C | undefined;
  progress(update: { done: number; total?: number | null; message?: string | null; checkpoint?: C }): Promise<void>;
  throwIfCancelled(): Promise<void>;
};

type Run = RunView & { controller: AbortController; finished: Promise<void> };

export type RunRegistry = ReturnType<typeof createRunRegistry>;

let sequence = 0;

export function createRunRegistry(now: () => number = Date.now) {
  const runs = new Map<string, Run[]>();
  const view = ({ controller: _c, finished: _f, ...rest }: Run): RunView => rest;
  return {
    /** Starts `work` unless a run of the kind is going for the scope: then answers that one (started = false). */
    start<I, C, R>(scope: string, kind: RunKind, input: I, startedBy: string | null, work: (ctx: RunContext<I, C>) => Promise<R>): { run: RunView; started: boolean } {
      const list = runs.get(scope) ?? [];
      const going = list.find((r) => r.kind === kind && r.state === "running");
      if (going) return { run: view(going), started: false };
      const controller = new AbortController();
      const run: Run = {
        id: `${kind}-${now()}-${++sequence}`,
        kind,
        state: "running",
        progress: { done: 0, total: null, message: null },
        input,
        result: null,
        error: null,
        startedBy,
        startedAt: now(),
        finishedAt: null,
        controller,
        finished: Promise.resolve(),
      };
      const check = async () => {
        if (controller.signal.aborted) throw new TaskCancelled();
      };
      const ctx: RunContext<I, C> = {
        task: { id: run.id },
        input,
        checkpoint: undefined,
        async progress(update) {
          run.progress = { done: update.done, total: update.total === undefined ? run.progress.total : update.total, message: update.message ?? run.progress.message };
          await check();
        },
        throwIfCancelled: check,
      };
      run.finished = Promise.resolve()
        .then(() => work(ctx))
        .then(
          (result) => {
            run.state = "done";
            run.result = result;
          },
          (error: unknown) => {
            run.state = error instanceof TaskCancelled ? "cancelled" : "failed";
            run.error = error instanceof TaskCancelled ? null : error instanceof Error ? error.message.slice(0, 500) : "failed";
          },
        )
        .finally(() => {
          run.finishedAt = now();
        });
      // The newest first; a scope keeps its last 20 runs.
      runs.set(scope, [run, ...list].slice(0, 20));
      return { run: view(run), started: true };
    },
    list(scope: string, kind?: RunKind): RunView[] {
      return (runs.get(scope) ?? []).filter((r) => !kind || r.kind === kind).map(view);
    },
    get(scope: string, id: string): RunView | undefined {
      const run = (runs.get(scope) ?? []).find((r) => r.id === id);
      return run ? view(run) : undefined;
    },
    /** Asks a run to stop; it stops before its next step. */
    cancel(scope: string, id: string): RunView | undefined {
      const run = (runs.get(scope) ?? []).find((r) => r.id === id);
      run?.controller.abort();
      return run ? view(run) : undefined;
    },
    /** Tests: waits for every run of the scope to end. */
    async settled(scope: string): Promise<void> {
      await Promise.all((runs.get(scope) ?? []).map((r) => r.finished));
    },
  };
}
