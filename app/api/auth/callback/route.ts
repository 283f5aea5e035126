import { handleCallback } from "@/lib/auth/flow-handlers";

export const dynamic = "force-dynamic";

/** §5.2: the registered authorization callback (install entry and authorization return). */
export function GET(request: Request) {
  return handleCallback(request);
}

/** The cookie-less resume of an authorization return (flow from the tab's sessionStorage). */
export function POST(request: Request) {
  return handleCallback(request);
}
