import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store";
import type { TaskContext } from "@/lib/tasks/task-types";
import { CALL_BUDGET, computeDashboard } from "./compute-dashboard";
import { saveFigures } from "./figures-store";

/**
 * The overview's figures as a background task of the tenant (kind `dashboard.figures`, one at a time
 * per tenant): computed with the installation's token and stored for every instance to serve. Its
 * progress is the platform calls made of the plan's budget, so the page's Refresh shows how far it is.
 * No checkpoint: a computation that stopped starts again (it is at most CALL_BUDGET calls).
 */
export const FIGURES_TASK = "dashboard.figures";

export type FiguresInput = Record<string, never>;
export type FiguresResult = { calls: number; computedAt: number };
export type FiguresContext = Pick<TaskContext<FiguresInput, never>, "key" | "progress" | "signal" | "now">;

export async function computeFiguresTask(ctx: FiguresContext, deps: { call: PlatformCall; store: Store }): Promise<FiguresResult> {
  const startedAt = ctx.now();
  let calls = 0;
  let reported = Promise.resolve();
  const counted = (async (name: Parameters<PlatformCall>[0], input: never) => {
    ctx.signal.throwIfAborted();
    const answer: unknown = await deps.call(name, input);
    calls++;
    // Progress writes one at a time (a slow store never queues up 90 of them); each throws once cancelled.
    reported = reported.then(() => ctx.progress({ done: calls, total: CALL_BUDGET }));
    reported.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
    return answer;
  }) as unknown as PlatformCall;
  await ctx.progress({ done: 0, total: CALL_BUDGET });
  const data = await computeDashboard(counted, startedAt);
  await reported;
  ctx.signal.throwIfAborted();
  const computedAt = ctx.now();
  await saveFigures(deps.store, ctx.key, data, computedAt, startedAt);
  await ctx.progress({ done: CALL_BUDGET, total: CALL_BUDGET });
  return { calls: data.calls, computedAt };
}
