import { loadSandboxConfig } from "@/sandbox/config";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { sandboxControl, type SandboxControl } from "./sandbox-control";

/**
 * A Platform Sandbox for integration tests: free ports, in-memory database, and its control plane
 * (`control`, on alpha). The sandbox is part of this repository, so nothing is skipped: a sandbox
 * that does not serve the `/v1` resource API fails the suite that started it, with CI=true or not.
 */
export async function startTestSandbox(): Promise<{ sandbox: RunningSandbox; control: SandboxControl }> {
  const sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0" }), dbFile: ":memory:" });
  const probe = await fetch(`${sandbox.urls.alpha}/v1/customers`);
  const text = await probe.text();
  if (probe.status === 404 && text.includes("no such endpoint")) {
    await sandbox.close();
    throw new Error("the Platform Sandbox serves no /v1 resource API: the platform integration tests cannot run");
  }
  return { sandbox, control: sandboxControl(sandbox.urls.alpha!) };
}

