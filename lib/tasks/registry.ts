import { processValue } from "@/lib/process-state";
import type { TaskDefinition } from "./task-types";

/**
 * The kinds of background task and the recurring jobs, defined by features at start-up
 * (lib/composition.ts), one registry per process (lib/process-state.ts: Next's bundles share it).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each definition keeps its own input, result and checkpoint types
export type AnyTaskDefinition = TaskDefinition<any, any, any>;

export function taskDefinitions(): Map<string, AnyTaskDefinition> {
  return processValue("task-definitions", () => new Map<string, AnyTaskDefinition>());
}

/** Defines (or redefines, idempotently) a kind of task. */
export function defineTask<I, R, C>(definition: TaskDefinition<I, R, C>): TaskDefinition<I, R, C> {
  taskDefinitions().set(definition.kind, definition as AnyTaskDefinition);
  return definition;
}

/**
 * A recurring job (retention, a segment's hourly sync, figures): `run` is called about every
 * `everyMs`, by one instance at a time (the one that moves the schedule's row on), never twice for
 * one due time. It should enqueue tasks rather than do long work itself.
 */
export type ScheduleDefinition = { name: string; everyMs: number; run: (now: number) => Promise<void> };

export function scheduleDefinitions(): Map<string, ScheduleDefinition> {
  return processValue("task-schedules", () => new Map<string, ScheduleDefinition>());
}

export function defineSchedule(definition: ScheduleDefinition): ScheduleDefinition {
  if (!(definition.everyMs >= 1000)) throw new Error(`schedule ${definition.name}: everyMs must be at least 1000`);
  scheduleDefinitions().set(definition.name, definition);
  return definition;
}
