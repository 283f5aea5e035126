import { describe, expect, it } from "vitest";
import { startSandboxForFile } from "./testing/harness";

const { sandbox } = await startSandboxForFile();

describe("sandbox server", () => {
  it("answers a health check on each environment", async () => {
    for (const name of ["alpha", "beta"]) {
      const res = await fetch(`${sandbox.urls[name]}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", environment: name });
    }
  });

  it("issues test tokens bound to an environment through the control plane", async () => {
    const res = await fetch(`${sandbox.urls.alpha}/__sandbox/tokens`, {
      method: "POST",
      body: JSON.stringify({ environment: "beta" }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ token_type: "authorization_code", expires_in: 7200 });
    expect(body.access_token).toMatch(/^at_/);
  });

  it("refuses malformed control-plane input with a clear 400", async () => {
    const res = await fetch(`${sandbox.urls.alpha}/__sandbox/clock`, { method: "POST", body: "{oops" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/advanceSeconds/);
  });

  it("refuses the control plane in production mode", async () => {
    sandbox.ctx.config.production = true;
    try {
      const res = await fetch(`${sandbox.urls.alpha}/__sandbox/stats`);
      expect(res.status).toBe(403);
    } finally {
      sandbox.ctx.config.production = false;
    }
  });
});
