import "server-only";
import { requireApiSession } from "@/lib/auth/session";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";
import type { ShopRouteDeps } from "./shops-routes";

/** The deps of the shop and media routes: the proxy's, with the session's user and the store. */
export const shopRouteDeps = (): ShopRouteDeps => ({ ...proxyDeps(), requireSession: requireApiSession, store: getStore });
