import "server-only";
import http from "node:http";
import https from "node:https";
import { problemBody, problemHeaders, requestProblem } from "./request-guard";

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
        const body = problemBody(problem);
        res.writeHead(problem.status, { ...problemHeaders(problem), "Content-Length": Buffer.byteLength(body), Connection: "close" });
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
