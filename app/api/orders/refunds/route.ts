import { withDeps } from "@/lib/http/route";
import { handleRefundDelete, handleRefundPost, handleRefundsGet } from "@/lib/orders/refund-route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const deps = () => ({ ...proxyDeps(), store: getStore });

export const GET = withDeps(handleRefundsGet, deps);
export const POST = withDeps(handleRefundPost, deps);
export const DELETE = withDeps(handleRefundDelete, deps);
