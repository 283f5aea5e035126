import { platformProxy } from "@/lib/platform/proxy-deps";

/** The browser's door to the platform API (DESIGN.md §4 "API proxy"); all logic is in lib/platform/proxy.ts. */
export const dynamic = "force-dynamic";

export const GET = platformProxy;
export const POST = platformProxy;
export const PUT = platformProxy;
export const DELETE = platformProxy;
