import { describe, expect, it } from "vitest";
import type { Transport } from "./client";
import { installationCaller, type InstallationTokens } from "./installation-call";


const KEY = { openAppId: "app-1", tenantId: "7" };
const json = (status: number, body: unknown) => ({ status, headers: { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/json" : null) }, body: JSON.stringify(body) });

describe("the one installation caller", () => {
  it("calls with the installation's token and API URL; a refused token is replaced naming the refused one", async () => {
    const asked: Array<Parameters<InstallationTokens>[1]> = [];
    const tokens: InstallationTokens = async (key, options) => {
      expect(key).toEqual(KEY);
      asked.push(options);
      return { accessToken: options?.forceRefresh ? "fresh" : "stale", apiUrl: "http://platform.test" };
    };
    const seen: string[] = [];
    const transport: Transport = async (req) => {
      const url = new URL(req.url);
      seen.push(`${url.origin}${url.pathname} ${url.searchParams.get("access_token")}`);
      return url.searchParams.get("access_token") === "stale" ? json(401, { error_code: 40001, error_description: "invalid token" }) : json(200, { count: 3 });
    };
    const call = installationCaller(KEY, tokens, { transport });
    await expect(call("customers.count", {})).resolves.toBe(3);
    expect(seen).toEqual(["http://platform.test/v1/customers/count stale", "http://platform.test/v1/customers/count fresh"]);
    expect(asked).toEqual([undefined, { forceRefresh: true, rejectedAccessToken: "stale" }]);
  });
});
