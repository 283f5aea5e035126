import "server-only";
import http from "node:http";
import https from "node:https";
import { requestProblem } from "./request-guard";

/**
 * Installs the request guard (request-guard.ts) in front of the Node HTTP server that `next start`
 * and `next dev` run, from instrumentation.ts. It has to sit there, before Next: Next builds a
 * WHATWG `Request` for every request before proxy.ts or any route runs, and that constructor throws
 * for TRACE/TRACK/CONNECT (a 500), and Next decodes dynamic segments (`/api/platform/v1/deals/%ff`,
 * where proxy.ts does not run) with the same result. Refused requests never reach the app.
 */

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
const INSTALLED = Symbol.for("engage-console.request-guard");

function guarded(original: Emit): Emit {
  return function (this: http.Server, event, ...args) {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const problem = requestProblem(req.method ?? "", req.url ?? "/");
      if (problem) {
        const body = JSON.stringify({ error: { code: problem.code, message: problem.message } });
        res.writeHead(problem.status, {
          "Content-Type": "application/json; charset=utf-8",
          "Content-Length": Buffer.byteLength(body),
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
          Connection: "close",
          ...problem.headers,
        });
        res.end(body);
        req.resume();
        return true;
      }
    }
    return original.call(this, event, ...args);
  };
}

export function installRequestGuard(): void {
  for (const prototype of [http.Server.prototype, https.Server.prototype] as unknown as Array<{ emit: Emit; [INSTALLED]?: true }>) {
    if (prototype[INSTALLED]) continue;
    prototype.emit = guarded(prototype.emit);
    prototype[INSTALLED] = true;
  }
}
