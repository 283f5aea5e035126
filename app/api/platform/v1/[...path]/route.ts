import { platformProxy } from "@/lib/proxy/proxy-deps";

export const dynamic = "force-dynamic";

export const GET = platformProxy;
export const POST = platformProxy;
export const PUT = platformProxy;
export const DELETE = platformProxy;
