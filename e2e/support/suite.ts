import { test } from "@playwright/test";
import { resetSandbox, sandboxToken } from "./sandbox-api";
import { installBeforeEach } from "./sandbox-login";

/**
 * The sandbox side of a suite (call it in the `describe`): before all its tests the sandbox is
 * reset when `reset` says so (seeding the customers given; a reset also ends earlier tokens) and an
 * access token for checking results is taken; before each test the app is installed and the staff
 * signed in, in a `window`-sized page. Read `token` inside tests and hooks.
 */
export function sandboxSuite(options: { reset?: true | { customers: number }; window: { width: number; height: number } }): { readonly token: string } {
  const suite = { token: "" };
  test.beforeAll(async ({ request }) => {
    if (options.reset) await resetSandbox(request, options.reset === true ? undefined : options.reset);
    suite.token = await sandboxToken();
  });
  installBeforeEach(options.window);
  return suite;
}
