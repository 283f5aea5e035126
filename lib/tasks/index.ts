import "server-only";
import { getJobQueue } from "@/lib/jobs";
import { logger } from "@/lib/log";
import { processSlot, processValue } from "@/lib/process-state";
import { getStore } from "@/lib/store";
import { scheduleDefinitions, taskDefinitions } from "./registry";
import { createTaskService, type TaskService } from "./service";

export { defineSchedule, defineTask } from "./registry";
export type { TaskActor, TaskContext, TaskDefinition, TaskRecord, TaskState } from "./task-types";
export { TaskCancelled } from "./task-types";

/** The process's task service over the app's store and job queue. */
export function getTaskService(): TaskService {
  return processValue("task-service", () =>
    createTaskService({
      store: getStore,
      queue: getJobQueue,
      definitions: taskDefinitions,
      schedules: scheduleDefinitions,
      log: logger().child({ scope: "tasks" }),
    }),
  );
}

const SWEEP_MS = 5_000;
const sweeper = processSlot<ReturnType<typeof setInterval>>("task-sweeper");

/**
 * At start-up (instrumentation.ts): this instance takes task jobs, and every few seconds resumes
 * tasks whose job or runner was lost and runs the recurring jobs that are due. Idempotent.
 */
export function startTaskRunner(service: TaskService = getTaskService()): void {
  if (sweeper.get()) return;
  const log = logger().child({ scope: "tasks" });
  let busy = false;
  // One sweep at a time: a slow one (a due schedule) is not overlapped by the next tick.
  const sweep = async () => {
    if (busy) return;
    busy = true;
    try {
      await service.sweep();
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "task sweep failed");
    } finally {
      busy = false;
    }
  };
  void service.listen().then(sweep, (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, "task queue not started"));
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref?.();
  sweeper.set(timer);
}
