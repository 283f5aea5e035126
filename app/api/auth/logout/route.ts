import { handleLogout } from "@/lib/auth/flow-handlers";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return handleLogout(request);
}
