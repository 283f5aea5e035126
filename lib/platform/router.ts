import { operationList, type HttpMethod, type Operation } from "./operations";

/**
 * Matches `METHOD /v1/...` against the operations of the table (the proxy's allowlist). Literal
 * segments win over parameters, so `/v1/customers/count` is the count, not customer "count".
 */

type Segment = string | { param: string };
type Route = { op: Operation; segments: Segment[]; literals: number };

export type RouteMatch =
  | { kind: "match"; op: Operation; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: HttpMethod[] }
  | { kind: "not_found" }
  | { kind: "bad_path" };

export function createRouter(ops: readonly Operation[]) {
  const byLength = new Map<number, Route[]>();
  for (const op of ops) {
    const segments: Segment[] = op.path
      .split("/")
      .slice(1)
      .map((s) => {
        const m = /^\{(\w+)\}$/.exec(s);
        return m ? { param: m[1]! } : s;
      });
    const route = { op, segments, literals: segments.filter((s) => typeof s === "string").length };
    const list = byLength.get(segments.length) ?? [];
    list.push(route);
    list.sort((a, b) => b.literals - a.literals);
    byLength.set(segments.length, list);
  }

  return function match(method: string, path: string): RouteMatch {
    const parts = path.split("/").slice(1);
    const candidates = byLength.get(parts.length);
    if (!candidates || parts.some((p) => p === "")) return { kind: "not_found" };
    const allow: HttpMethod[] = [];
    let bestLiterals = -1;
    for (const route of candidates) {
      if (route.literals < bestLiterals) break;
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i]!;
        if (typeof seg === "string" && seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      bestLiterals = route.literals;
      if (route.op.method !== method) {
        allow.push(route.op.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i]!;
        if (typeof seg !== "string") {
          try {
            params[seg.param] = decodeURIComponent(parts[i]!);
          } catch {
            return { kind: "bad_path" };
          }
        }
      }
      return { kind: "match", op: route.op, params };
    }
    return allow.length > 0 ? { kind: "method_not_allowed", allow } : { kind: "not_found" };
  };
}

/** The allowlist of the browser proxy: resource-API operations of the table. */
export const matchBrowserOperation = createRouter(operationList.filter((op) => op.browser));
