import { handleCallback } from "@/lib/auth/flow-handlers";

export const dynamic = "force-dynamic";

/** §5.2: the registered authorization callback (install entry and authorization return). */
export function GET(request: Request) {
  return handleCallback(request);
}


/** The return page's same-origin post: the code is exchanged only here, with the browser's proof (flow-handlers.ts). */
export function POST(request: Request) {
  return handleCallback(request);
}
