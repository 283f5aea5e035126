import { describe, expect, it } from "vitest";
import { appDevEnv, devPorts, sandboxDevEnv } from "./dev-env";

describe("npm run dev with moved ports", () => {
  it("keeps the contract ports when nothing is set", () => {
    expect(sandboxDevEnv({})).toEqual({ SANDBOX_ALPHA_PORT: "4000", SANDBOX_BETA_PORT: "4001", SANDBOX_APP_URL: "http://localhost:3000" });
    expect(appDevEnv({})).toMatchObject({ PORT: "3000", APP_URL: "http://localhost:3000", PLATFORM_EXTENSION_URL: "http://127.0.0.1:4000/extension" });
  });

  it("moves the callback address, the platform URLs and the allow-list together", () => {
    const source = { PORT: "3150", SANDBOX_ALPHA_PORT: "4150", SANDBOX_BETA_PORT: "4151" };
    // The sandbox registers the app's callback (and frames it) at the moved app port…
    expect(sandboxDevEnv(source)).toEqual({ SANDBOX_ALPHA_PORT: "4150", SANDBOX_BETA_PORT: "4151", SANDBOX_APP_URL: "http://localhost:3150" });
    // …and the app finds the platform, and lets it frame the console, at the moved sandbox ports.
    expect(appDevEnv(source)).toEqual({
      PORT: "3150",
      APP_URL: "http://localhost:3150",
      PLATFORM_AUTH_URL: "http://127.0.0.1:4150",
      PLATFORM_API_URL: "http://127.0.0.1:4150",
      PLATFORM_EXTENSION_URL: "http://127.0.0.1:4150/extension",
      PLATFORM_DOMAIN_ALLOWLIST: "http://127.0.0.1:4150,http://127.0.0.1:4151",
    });
  });

  it("keeps a setting given explicitly", () => {
    const env = appDevEnv({ PORT: "3150", PLATFORM_DOMAIN_ALLOWLIST: "https://*.example.com" });
    expect(env.PLATFORM_DOMAIN_ALLOWLIST).toBe("https://*.example.com");
    expect(sandboxDevEnv({ APP_URL: "http://127.0.0.1:3150/" }).SANDBOX_APP_URL).toBe("http://127.0.0.1:3150");
  });

  it("refuses a port that is not one, or two services on one port", () => {
    expect(() => devPorts({ PORT: "abc" })).toThrow(/PORT must be a port number/);
    expect(() => devPorts({ SANDBOX_ALPHA_PORT: "3000" })).toThrow(/must differ/);
  });
});
