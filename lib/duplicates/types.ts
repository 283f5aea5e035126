import type { Pair } from "./clusters";
import type { Rule } from "./match-keys";
import type { TaskView } from "@/lib/tasks/task-api";

/** What the duplicates routes answer (shared by the server and the console). */

export type DuplicateCounts = { clusters: number; pairs: number };

export type QueueMember = { id: string; displayName: string | null; mobile: string | null; email: string | null };

export type QueueCluster = { id: string; score: number; rules: Rule[]; pairs: Pair[]; members: QueueMember[] };

export type DuplicateQueue = { clusters: QueueCluster[]; total: number; counts: DuplicateCounts; scan: TaskView | null };
