import { loadSandboxConfig } from "@/sandbox/config";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";

/**
 * A Platform Sandbox for integration tests: free ports, in-memory database. `resourceApi` says
 * whether the sandbox serves the `/v1` resource API yet (it lands from branch sandbox-api); suites
 * skip, loudly, while it does not.
 */
export async function startTestSandbox(): Promise<{ sandbox: RunningSandbox; resourceApi: boolean }> {
  const sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0" }), dbFile: ":memory:" });
  const probe = await fetch(`${sandbox.urls.alpha}/v1/customers`);
  const text = await probe.text();
  const resourceApi = !(probe.status === 404 && text.includes("no such endpoint"));
  if (!resourceApi) console.warn("the sandbox has no /v1 resource API yet: platform integration tests are skipped");
  return { sandbox, resourceApi };
}
