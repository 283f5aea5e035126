import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform/errors";
import { installLookupFailure } from "./install-lookup-failure";

const refused = (code: string, message: string) => new PlatformError({ kind: "validation", code, message, httpStatus: 400 });
const extensionUrl = "http://127.0.0.1:4000/extension";

describe("the install's environment lookup failure names its real cause", () => {
  it("an install from another platform than the app asks is not an expired link", () => {
    const f = installLookupFailure(refused("invalid_token", "token is unknown"), { extensionUrl, referer: "http://127.0.0.1:4150/application/mktapp/index.html" });
    expect(f.status).toBe(400);
    expect(f.title).toBe("This app looks environments up at another platform");
    expect(f.detail).toContain("http://127.0.0.1:4150");
    expect(f.detail).toContain("http://127.0.0.1:4000");
    expect(f.detail).toContain("PLATFORM_EXTENSION_URL");
    expect(`${f.title} ${f.detail}`).not.toMatch(/expired/i);
  });

  it("an expired or used token says so, in the platform's words", () => {
    const from = { extensionUrl, referer: "http://127.0.0.1:4000/" };
    expect(installLookupFailure(refused("expired_token", "token has expired"), from).title).toBe("This install link has expired");
    expect(installLookupFailure(refused("invalid_token", "token has already been used"), from).title).toBe("This install link was already used");
    const unknown = installLookupFailure(refused("invalid_token", "token is unknown"), from);
    expect(unknown.title).toBe("The platform refused the environment lookup");
    expect(unknown.detail).toContain("token is unknown");
  });

  it("an unreachable lookup service names the address tried", () => {
    const f = installLookupFailure(PlatformError.network(new Error("connect ECONNREFUSED 127.0.0.1:4000")), { extensionUrl, referer: null });
    expect(f.status).toBe(502);
    expect(f.detail).toContain("http://127.0.0.1:4000");
    expect(f.detail).toContain("SANDBOX_ALPHA_PORT");
  });
});
