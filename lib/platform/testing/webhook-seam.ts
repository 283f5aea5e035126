import { callPlatform, type CallOptions } from "@/lib/platform/client";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { operations, type OperationName } from "@/lib/platform/operations";
import type { RunningSandbox } from "@/sandbox/server";
import { sandboxControl, sandboxToken, type SandboxControl } from "./sandbox-control";
import { startTestSandbox } from "./sandbox";

/**
 * The platform side of the webhook seam tests (platform → signed delivery → the app's receiver →
 * a feature): a sandbox of the test's own, the control plane, and the caller of alpha's installation
 * with the token of the last `prepare`. The receiver and what follows it are the test's.
 */
export type WebhookSeam = {
  sandbox: RunningSandbox;
  alpha: string;
  /** Alpha's installation (the sandbox's seeded tenant, ids above 2^53). */
  key: { openAppId: string; tenantId: string };
  control: SandboxControl;
  call: PlatformCall;
  /**
   * A fresh tenant for one test: the sandbox reset and seeded (`seed` may add its own data after the
   * customers), the app installed, every change sent to `webhookUrl` signed with `secret` (§5.5
   * secret mode, quick retries), and `call` given a new token.
   */
  prepare(options: { customers: number; webhookUrl: string; secret: string; seed?: (control: SandboxControl) => Promise<void> }): Promise<void>;
};

export async function startWebhookSeam(): Promise<WebhookSeam> {
  const { sandbox } = await startTestSandbox();
  const alpha = sandbox.urls.alpha!;
  const control = sandboxControl(alpha);
  let platform: CallOptions | undefined;
  const call = ((name: OperationName, input: unknown) => {
    if (!platform) throw new Error("prepare() the seam before calling the platform");
    return callPlatform(operations[name], input as never, platform);
  }) as PlatformCall;
  return {
    sandbox,
    alpha,
    key: { openAppId: "oa-alpha-7f3c9e21", tenantId: "80000000001" },
    control,
    call,
    async prepare({ customers, webhookUrl, secret, seed }) {
      await control("/reset", {});
      await control("/seed", { customers });
      if (seed) await seed(control);
      await control("/installations", { environment: "alpha", installed: true });
      await control("/webhooks/config", { url: webhookUrl, mode: "secret", secret, baseDelayMs: 10, maxAttempts: 2 });
      platform = { apiUrl: alpha, accessToken: await sandboxToken(control), retry: { baseDelayMs: 5, maxDelayMs: 20 } };
    },
  };
}
