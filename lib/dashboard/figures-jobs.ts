import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store";
import type { InstallationKey } from "@/lib/store/installations";
import type { ScheduleDefinition } from "@/lib/tasks/registry";
import type { TaskActor, TaskDefinition } from "@/lib/tasks/task-types";
import { dueFigures, FIGURES_POLICY, type RefreshPolicy } from "./figures-store";
import { computeFiguresTask, FIGURES_TASK, type FiguresInput, type FiguresResult } from "./figures-task";

/** Who the schedule's computations are shown as started by (the panel names a person or this). */
export const SCHEDULE_ACTOR: TaskActor = { userId: "", name: "Engage Console" };

export function figuresTask(deps: { callerFor: (key: InstallationKey, signal: AbortSignal) => PlatformCall; store: () => Promise<Store> }): TaskDefinition<FiguresInput, FiguresResult, never> {
  return {
    kind: FIGURES_TASK,
    exclusive: "tenant",
    // A failed computation is tried again by the schedule, not at once: the platform may be in trouble.
    maxAttempts: 1,
    run: async (ctx) => computeFiguresTask(ctx, { call: deps.callerFor(ctx.key, ctx.signal), store: await deps.store() }),
  };
}

/**
 * Every minute, one instance starts the computation of each tenant whose figures are due
 * (missing, older than an hour, or changed a while ago); a tenant already computing is answered
 * its running task, so nothing runs twice.
 */
export function figuresSchedule(deps: {
  store: () => Promise<Store>;
  start: (key: InstallationKey, kind: string, input: FiguresInput, actor: TaskActor) => Promise<unknown>;
  policy?: RefreshPolicy;
  everyMs?: number;
}): ScheduleDefinition {
  return {
    name: "dashboard-figures",
    everyMs: deps.everyMs ?? 60_000,
    run: async (now) => {
      for (const key of await dueFigures(await deps.store(), now, deps.policy ?? FIGURES_POLICY)) await deps.start(key, FIGURES_TASK, {}, SCHEDULE_ACTOR);
    },
  };
}
