import { handleCustomerExportStart } from "@/lib/customers/customer-export-route";
import { withDeps } from "@/lib/http/route";
import { taskRouteDeps } from "@/lib/tasks/task-route-deps";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleCustomerExportStart, taskRouteDeps);
