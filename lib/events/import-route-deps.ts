import "server-only";
import { getStore } from "@/lib/store";
import { taskRouteDeps } from "@/lib/tasks/task-route-deps";
import type { ImportRouteDeps } from "./import-route";

/** The deps of the import's start route: the task routes' and the app's store (where the file goes). */
export const importRouteDeps = (): ImportRouteDeps => ({ ...taskRouteDeps(), store: getStore });
