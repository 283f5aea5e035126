import type { TaskRecord } from "./task-types";

/** What the task routes answer (the browser's contract; no server code). */
export type TaskView = Omit<TaskRecord, "openAppId" | "tenantId">;
export type TaskListAnswer = { tasks: TaskView[] };
export type TaskAnswer = { task: TaskView };

export const isActive = (task: Pick<TaskView, "state">): boolean => task.state === "queued" || task.state === "running";
