"use client";
import { useQuery } from "@tanstack/react-query";
import { appQuery } from "@/lib/api/app-queries";
import { isActive, type TaskView } from "@/lib/tasks/task-api";

/** How often the list is read again while a task is waiting or running. */
const WHILE_ACTIVE_MS = 1_500;

/**
 * The installation's recent tasks of these kinds (every staff member sees the same), read again
 * every second and a half while one of them is waiting or running, and not at all otherwise.
 */
export function useTasks(kinds: readonly string[], limit = 5): { tasks: TaskView[] | undefined; isLoading: boolean; error: unknown } {
  const query = useQuery({
    ...appQuery("tasks.list", { query: { kind: [...kinds], limit } }),
    refetchInterval: (q) => (q.state.data?.tasks.some(isActive) ? WHILE_ACTIVE_MS : false),
  });
  return { tasks: query.data?.tasks, isLoading: query.isLoading, error: query.error };
}
