import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small round-robin load balancer on loopback, for running the console as two instances behind
 * one address (e2e/instances). It forwards each request as it came — method, path, query, every
 * header (cookies, Origin, Sec-Fetch-*, Host) and the body, streamed — and the answer likewise
 * (each `Set-Cookie` apart, redirects untouched), dropping only the hop-by-hop headers a proxy may
 * not pass on (RFC 9110 §7.6.1).
 *
 * Turns are kept per route (method and path): consecutive requests of one route go to alternate
 * instances, so that the second webhook delivery, the second page load of a path or the second
 * call of an API is always served by the other instance — whatever the browser's background polls
 * did in between. A global turn would make "both instances saw X" a matter of luck.
 *
 * `GET /__proxy/health` and `GET /__proxy/stats` are the proxy's own: requests per instance by
 * `METHOD /path STATUS`, for the tests to check where things landed.
 */

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);

export type UpstreamStats = { url: string; requests: number; routes: Record<string, number> };
export type RoundRobinProxy = { port: number; stats(): UpstreamStats[]; close(): Promise<void> };

/** Raw headers (name, value, name, value…) without the hop-by-hop ones and those `Connection` names. */
function endToEnd(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === "connection") for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** `/customers/123?x=1` → `/customers/:id`: long digit runs are ids, so that stats group by route. */
const routeOf = (method: string, url: string) => `${method} ${url.split("?")[0]!.replace(/\/\d{3,}(?=\/|$)/g, "/:id")}`;

export async function startRoundRobinProxy(options: { port: number; upstreams: string[] }): Promise<RoundRobinProxy> {
  const upstreams = options.upstreams.map((url) => ({ url: new URL(url), requests: 0, routes: {} as Record<string, number> }));
  const turns = new Map<string, number>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    if (req.method === "GET" && url === "/__proxy/health") return void res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
    if (req.method === "GET" && url === "/__proxy/stats") {
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(upstreams.map((u) => ({ url: u.url.origin, requests: u.requests, routes: u.routes }))));
    }
    const route = routeOf(req.method ?? "GET", url);
    const turn = turns.get(route) ?? 0;
    turns.set(route, turn + 1);
    const upstream = upstreams[turn % upstreams.length]!;
    upstream.requests += 1;

    const forwarded = httpRequest(
      { host: upstream.url.hostname, port: upstream.url.port, method: req.method, path: url, headers: endToEnd(req.rawHeaders), setHost: false },
      (answer) => {
        const key = `${route} ${answer.statusCode}`;
        upstream.routes[key] = (upstream.routes[key] ?? 0) + 1;
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`upstream ${upstream.url.origin} failed`);
      else res.destroy();
    });
    // A client that goes away (a navigation, an aborted fetch) ends the upstream request too.
    res.on("close", () => {
      if (!res.writableFinished) forwarded.destroy();
    });
    req.pipe(forwarded);
  };

  // The browser and the sandbox reach the app as `localhost`, which may resolve to either family.
  const servers: Server[] = [];
  for (const host of ["127.0.0.1", "::1"]) {
    const server = createServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.port, host, () => resolve());
      });
      servers.push(server);
    } catch (error) {
      // A machine without IPv6 loopback has 127.0.0.1 only.
      if (host === "::1") continue;
      throw error;
    }
  }
  return {
    port: (servers[0]!.address() as AddressInfo).port,
    stats: () => upstreams.map((u) => ({ url: u.url.origin, requests: u.requests, routes: { ...u.routes } })),
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); }))).then(() => undefined),
  };
}

// As a program (the instances suite's web server): `round-robin-proxy.ts <port> <upstream> <upstream>…`.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const [port, ...targets] = process.argv.slice(2);
  if (!port || targets.length === 0) {
    console.error("usage: round-robin-proxy.ts <port> <upstream url>…");
    process.exit(2);
  }
  const proxy = await startRoundRobinProxy({ port: Number(port), upstreams: targets });
  console.log(`round-robin proxy on ${proxy.port} → ${targets.join(", ")}`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
