import { withDeps } from "@/lib/http/route";
import { taskRouteDeps } from "@/lib/tasks/task-route-deps";
import { handleTaskGet } from "@/lib/tasks/task-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleTaskGet, taskRouteDeps);
