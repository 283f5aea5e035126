import { Agent, request } from "undici";

/**
 * The floor of any proxy in Next (scripts/bench/proxy.ts): the request's path and query go to the
 * sandbox with a fixed access token (BENCH_FLOOR_UPSTREAM, BENCH_FLOOR_TOKEN) through undici, and
 * the answer's bytes come back as they are. No session, validation, id conversion or logging.
 */
export const dynamic = "force-dynamic";

const upstream = process.env.BENCH_FLOOR_UPSTREAM ?? "http://127.0.0.1:4500";
const token = encodeURIComponent(process.env.BENCH_FLOOR_TOKEN ?? "");
const agent = new Agent({ keepAliveTimeout: 4_000, connections: 128 });
const PREFIX = "/api/platform".length;

export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const target = `${upstream}${url.pathname.slice(PREFIX)}${url.search ? `${url.search}&` : "?"}access_token=${token}`;
  const res = await request(target, { method: "GET", dispatcher: agent, signal: req.signal });
  const body = new Uint8Array(await res.body.arrayBuffer());
  return new Response(body, { status: res.statusCode, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
}
