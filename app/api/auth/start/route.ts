import { handleStart } from "@/lib/auth/flow-handlers";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return handleStart(request);
}
