import "server-only";
import { defineOperations } from "@/lib/http/define-operations";

/** The proxy's routes: it matches and checks its input against the platform's table itself (lib/proxy/proxy.ts). */

export const proxyOperations = defineOperations({
  "platform.get": { summary: "A read of the platform's resource API through the proxy (only the operations of its table, lib/platform/README.md)" },
  "platform.post": { summary: "A write of the platform's resource API through the proxy" },
  "platform.put": { summary: "A replacement through the proxy" },
  "platform.delete": { summary: "A deletion through the proxy" },
});
