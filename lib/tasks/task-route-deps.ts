import "server-only";
import { requireApiSession } from "@/lib/auth/session";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getTaskService } from "./index";
import type { TaskRouteDeps } from "./task-routes";

/** The deps of the task routes: the console's (session, app origins, logger) and the process's task service. */
export const taskRouteDeps = (): TaskRouteDeps => ({ ...proxyDeps(), requireSession: requireApiSession, tasks: getTaskService });
