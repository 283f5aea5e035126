import { withDeps } from "@/lib/http/route";
import { handlePreferencePut, handlePreferencesGet } from "@/lib/preferences/preferences-route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const deps = () => ({ ...proxyDeps(), store: getStore });

export const GET = withDeps(handlePreferencesGet, deps);
export const PUT = withDeps(handlePreferencePut, deps);
