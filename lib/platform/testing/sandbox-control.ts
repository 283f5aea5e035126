/**
 * The Platform Sandbox's control plane (`/__sandbox/...`, sandbox/README.md) for tests and
 * benchmarks: one way to call it. No body reads (GET), a body writes (POST, JSON); an answer that
 * is not 2xx throws with its status, so a setup step that failed is never mistaken for a result.
 */
export type SandboxControl = <T = Record<string, unknown>>(path: string, body?: unknown) => Promise<T>;

/** `origin`: the sandbox environment's origin, or a function giving it (a sandbox started later). */
export function sandboxControl(origin: string | (() => string)): SandboxControl {
  return async <T,>(path: string, body?: unknown): Promise<T> => {
    const at = `${typeof origin === "string" ? origin : origin()}/__sandbox${path}`;
    const init: RequestInit = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const res = await fetch(at, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? "GET"} /__sandbox${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
    return (text === "" ? {} : JSON.parse(text)) as T;
  };
}

/** Calls per endpoint (`METHOD /route`) the sandbox answered since its last reset. */
export async function sandboxCalls(control: SandboxControl): Promise<Record<string, number>> {
  return (await control<{ calls: Record<string, number> }>("/stats")).calls;
}

/** A new access token of the environment's installation, from the control plane (no install flow). */
export async function sandboxToken(control: SandboxControl, environment: "alpha" | "beta" = "alpha"): Promise<string> {
  return (await control<{ access_token: string }>("/tokens", { environment })).access_token;
}

/** How many calls of the resource API (`/v1/`) the sandbox answered, the sign-in's users/current left out. */
export async function sandboxApiCalls(control: SandboxControl): Promise<number> {
  return Object.entries(await sandboxCalls(control))
    .filter(([route]) => route.includes("/v1/") && !route.includes("users/current"))
    .reduce((sum, [, n]) => sum + n, 0);
}
