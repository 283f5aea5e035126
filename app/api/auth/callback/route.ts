import { handleCallback } from "@/lib/auth/flow-handlers";

export const dynamic = "force-dynamic";

/** §5.2: the registered authorization callback (install entry and authorization return). */
export function GET(request: Request) {
  return handleCallback(request);
}

