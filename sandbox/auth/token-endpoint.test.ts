import { describe, expect, it } from "vitest";
import { postJson, tokenRequest, startSandboxForFile } from "../testing/harness";

const { alpha, beta } = await startSandboxForFile({ reset: true });
const CALLBACK = "http://localhost:3000/api/auth/callback";
const client = { client_id: "engage-console", client_secret: "sandbox-secret" };

/** A fresh code of the demo staff through the control shortcut (the browser path is in authorize.test.ts). */
async function newCode(environment = "alpha", redirectUri = CALLBACK, install = false): Promise<string> {
  const res = await postJson(`${alpha}/__sandbox/authorize`, { environment, redirect_uri: redirectUri, state: "s", install });
  expect(res.status).toBe(200);
  return new URL((await res.json()).callbackUrl).searchParams.get("code")!;
}

async function exchange(code: string, origin = alpha, extra: Record<string, string> = {}) {
  return tokenRequest(origin, { ...client, grant_type: "authorization_code", code, redirect_uri: CALLBACK, ...extra });
}

async function currentUser(origin: string, token: string, how: "bearer" | "query" = "bearer") {
  return how === "bearer"
    ? fetch(`${origin}/v1/users/current`, { headers: { authorization: `Bearer ${token}` } })
    : fetch(`${origin}/v1/users/current?access_token=${encodeURIComponent(token)}`);
}

async function advance(seconds: number) {
  await postJson(`${alpha}/__sandbox/clock`, { advanceSeconds: seconds });
}

describe("POST /oauth2/token, authorization_code grant", () => {
  it("exchanges a code for tokens of the spec's shape", async () => {
    const res = await exchange(await newCode());
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: "authorization_code",
      expires_in: 7200,
      refresh_token: expect.any(String),
    });
    const user = await currentUser(alpha, body.access_token);
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ tenantId: 80000000001, email: "admin@alpha.test", id: 90000000001 });
  });

  it("a code is single use; a replay fails and revokes what the code issued", async () => {
    const code = await newCode();
    const first = await (await exchange(code)).json();
    const replay = await exchange(code);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: "invalid_grant", error_description: "code has already been used" });
    expect((await currentUser(alpha, first.access_token)).status).toBe(401);
    const refresh = await tokenRequest(alpha, { ...client, grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refresh.status).toBe(400);
  });

  it("a code expires after 10 minutes of the sandbox clock", async () => {
    const code = await newCode();
    await advance(601);
    const res = await exchange(code);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: "code has expired" });
  });

  it("a code is bound to its redirect_uri, client and environment", async () => {
    const code = await newCode();
    const other = await exchange(code, alpha, { redirect_uri: `${CALLBACK}?x=1` });
    expect(other.status).toBe(400);
    expect((await other.json()).error).toBe("invalid_grant");
    expect((await exchange(code, beta)).status).toBe(400);
    // Still unused after the failures: the right request succeeds.
    expect((await exchange(code)).status).toBe(200);
  });

  it("an unknown code is invalid_grant", async () => {
    const res = await exchange("no-such-code");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_grant");
  });

  it("client authentication failures are 401 invalid_client", async () => {
    const code = await newCode();
    for (const extra of [{ client_secret: "wrong" }, { client_id: "someone-else" }, { client_secret: "" }] as Record<string, string>[]) {
      const res = await exchange(code, alpha, extra);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("invalid_client");
    }
  });

  it("accepts client credentials by HTTP Basic too, but not both methods at once", async () => {
    const code = await newCode();
    const basic = `Basic ${Buffer.from("engage-console:sandbox-secret").toString("base64")}`;
    const form = { grant_type: "authorization_code", code, redirect_uri: CALLBACK };
    const both = await fetch(`${alpha}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
      body: new URLSearchParams({ ...form, client_secret: "sandbox-secret" }).toString(),
    });
    expect((await both.json()).error).toBe("invalid_request");
    const wrong = await fetch(`${alpha}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("engage-console:nope").toString("base64")}` },
      body: new URLSearchParams(form).toString(),
    });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${alpha}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
      body: new URLSearchParams(form).toString(),
    });
    expect(ok.status).toBe(200);
  });

  it("malformed requests are 400 invalid_request or unsupported_grant_type and change nothing", async () => {
    const code = await newCode();
    const json = await fetch(`${alpha}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...client, grant_type: "authorization_code", code, redirect_uri: CALLBACK }),
    });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe("invalid_request");
    const noGrant = await tokenRequest(alpha, { ...client, code });
    expect((await noGrant.json()).error).toBe("invalid_request");
    const wrongGrant = await tokenRequest(alpha, { ...client, grant_type: "client_credentials" });
    expect(wrongGrant.status).toBe(400);
    expect((await wrongGrant.json()).error).toBe("unsupported_grant_type");
    const repeated = await fetch(`${alpha}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `${new URLSearchParams({ ...client, grant_type: "authorization_code", code, redirect_uri: CALLBACK })}&code=other`,
    });
    expect((await repeated.json()).error).toBe("invalid_request");
    expect((await exchange(code, alpha, { code: "" })).status).toBe(400);
    expect((await exchange(code)).status).toBe(200);
  });
});

describe("POST /oauth2/token, refresh_token grant", () => {
  async function tokens() {
    return (await (await exchange(await newCode())).json()) as { access_token: string; refresh_token: string };
  }
  const refresh = (refreshToken: string, origin = alpha) => tokenRequest(origin, { ...client, grant_type: "refresh_token", refresh_token: refreshToken });

  it("rotates by default: a new pair, and the used refresh token stops working", async () => {
    const first = await tokens();
    const res = await refresh(first.refresh_token);
    expect(res.status).toBe(200);
    const second = await res.json();
    expect(second).toMatchObject({ token_type: "authorization_code", expires_in: 7200 });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const reuse = await refresh(first.refresh_token);
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe("invalid_grant");
    expect((await refresh(second.refresh_token)).status).toBe(200);
    expect((await currentUser(alpha, second.access_token)).status).toBe(200);
  });

  it("of concurrent refreshes with one refresh token exactly one succeeds (rotation)", async () => {
    const first = await tokens();
    const results = await Promise.all(Array.from({ length: 6 }, () => refresh(first.refresh_token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it("without rotation the same refresh token is returned and keeps working", async () => {
    expect(await (await postJson(`${alpha}/__sandbox/config`, { refreshRotation: false })).json()).toEqual({ refreshRotation: false, refreshGraceSeconds: 0 });
    const first = await tokens();
    const a = await (await refresh(first.refresh_token)).json();
    const b = await (await refresh(first.refresh_token)).json();
    expect(a.refresh_token).toBe(first.refresh_token);
    expect(b.refresh_token).toBe(first.refresh_token);
    expect(a.access_token).not.toBe(b.access_token);
    // Reset restores the default (rotation on).
    await fetch(`${alpha}/__sandbox/reset`, { method: "POST" });
    expect(await (await fetch(`${alpha}/__sandbox/config`)).json()).toEqual({ refreshRotation: true, refreshGraceSeconds: 0 });
  });

  it("with a rotation grace, a used refresh token works again only within the grace (a lost rotated token recovers)", async () => {
    await postJson(`${alpha}/__sandbox/config`, { refreshGraceSeconds: 30 });
    try {
      const first = await tokens();
      const lost = await (await refresh(first.refresh_token)).json();
      // the answer was lost: the old refresh token still works, with a new pair
      const again = await refresh(first.refresh_token);
      expect(again.status).toBe(200);
      const recovered = await again.json();
      expect(recovered.refresh_token).not.toBe(lost.refresh_token);
      expect((await refresh(recovered.refresh_token)).status).toBe(200);
      await advance(31);
      expect((await refresh(first.refresh_token)).status).toBe(400);
    } finally {
      await fetch(`${alpha}/__sandbox/reset`, { method: "POST" });
    }
  });

  it("rejects an unknown refresh token, one of another environment, and revoked ones", async () => {
    expect((await refresh("rt_nope")).status).toBe(400);
    const first = await tokens();
    expect((await refresh(first.refresh_token, beta)).status).toBe(400);
    const revoked = await postJson(`${alpha}/__sandbox/tokens/revoke`, { environment: "alpha" });
    expect(await revoked.json()).toEqual({ revoked: { refreshTokens: 1, accessTokens: 0 } });
    const res = await refresh(first.refresh_token);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_grant", error_description: "refresh_token has been revoked" });
    // Access tokens survive unless asked for.
    expect((await currentUser(alpha, first.access_token)).status).toBe(200);
    await postJson(`${alpha}/__sandbox/tokens/revoke`, { environment: "alpha", accessTokens: true });
    expect((await currentUser(alpha, first.access_token)).status).toBe(401);
  });

  it("counts every token request by grant type in the stats", async () => {
    const first = await tokens();
    await refresh(first.refresh_token);
    await refresh(first.refresh_token); // fails (rotated) but is still an attempt
    const stats = await (await fetch(`${alpha}/__sandbox/stats`)).json();
    expect(stats.tokenGrants).toEqual({ authorization_code: 1, refresh_token: 2 });
  });
});

describe("GET /v1/users/current", () => {
  it("accepts a bearer token and the access_token query parameter", async () => {
    const { access_token } = await (await exchange(await newCode())).json();
    for (const how of ["bearer", "query"] as const) {
      const res = await currentUser(alpha, access_token, how);
      expect(res.status).toBe(200);
      expect((await res.json()).tenantId).toBe(80000000001);
    }
  });

  it("fails with {error_code, error_description} for missing, unknown and foreign tokens (§7.4)", async () => {
    const missing = await fetch(`${alpha}/v1/users/current`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error_code: "invalid_token", error_description: "access_token is required" });
    const unknown = await currentUser(alpha, "at_forged");
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).error_code).toBe("invalid_token");
    const betaTokens = await (await postJson(`${alpha}/__sandbox/tokens`, { environment: "beta" })).json();
    expect((await currentUser(alpha, betaTokens.access_token)).status).toBe(401);
    const ok = await currentUser(beta, betaTokens.access_token);
    expect((await ok.json()).tenantId).toBe(80000000002);
  });

  it("an access token expires after 7200 s of the sandbox clock", async () => {
    const { access_token } = await (await exchange(await newCode())).json();
    await advance(7199);
    expect((await currentUser(alpha, access_token)).status).toBe(200);
    await advance(1);
    const res = await currentUser(alpha, access_token);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error_code: "expired_token", error_description: "access_token has expired" });
  });
});

describe("refresh rotation start value", () => {
  it("is on unless SANDBOX_REFRESH_ROTATION=false", async () => {
    const { initialAuthSettings } = await import("./settings");
    expect(initialAuthSettings({})).toEqual({ refreshRotation: true, refreshGraceSeconds: 0 });
    expect(initialAuthSettings({ SANDBOX_REFRESH_ROTATION: "false" })).toEqual({ refreshRotation: false, refreshGraceSeconds: 0 });
    expect(initialAuthSettings({ SANDBOX_REFRESH_GRACE_SECONDS: "30" })).toMatchObject({ refreshGraceSeconds: 30 });
    expect(initialAuthSettings({ SANDBOX_REFRESH_GRACE_SECONDS: "-1" })).toMatchObject({ refreshGraceSeconds: 0 });
  });
});
