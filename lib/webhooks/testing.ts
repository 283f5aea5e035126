import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { Store } from "@/lib/store/database";
import { receiveWebhook } from "./receive";
import type { TopicRegistry } from "./topics";

/**
 * Tests only: serves Web-standard route handlers (`(Request) => Promise<Response>`, like the App
 * Router's exported GET/POST) on a node http server on a free port, so real HTTP clients — the
 * sandbox's webhook sender among them — can call them without starting Next.
 */
export type Handler = (request: Request) => Promise<Response>;

export type ServedHandlers = { origin: string; close(): Promise<void> };

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

export async function serveHandlers(routes: Record<string, Partial<Record<"GET" | "POST", Handler>>>): Promise<ServedHandlers> {
  let origin = "";
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const handler = routes[path]?.[req.method as "GET" | "POST"];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    handler(toRequest(req, origin))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The app's webhook receiver (§5.5 secret mode) served at its route, as the seam tests use it: each
 * delivery stored by `store` and handed to `topics`. `url` is what the sandbox's sender is given.
 */
export async function serveWebhookReceiver(options: { secret: string; store: () => Promise<Store>; topics: Pick<TopicRegistry, "dispatch"> }): Promise<ServedHandlers & { url: string }> {
  const path = "/api/webhooks/platform";
  const served = await serveHandlers({ [path]: { POST: (request) => receiveWebhook(request, { config: { mode: "secret", secret: options.secret }, store: options.store, topics: options.topics }) } });
  return { ...served, url: `${served.origin}${path}` };
}
