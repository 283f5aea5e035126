import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as renewRoute } from "@/app/api/auth/session/route";
import { resetEnvForTests } from "@/lib/env";
import { setStoreForTests } from "@/lib/store";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { beginSignIn, endSignIns, issueSessionToken, readSessionToken, renewSessionToken, selectSession, type ConsoleSession } from "./session";
import { isOpenAppId } from "./settings";

let t: TestStore;
let session: ConsoleSession;
beforeAll(async () => {
  process.env.SESSION_PASSWORD = randomBytes(32).toString("base64url");
  process.env.DEPLOYMENT_MODE = "public";
  resetEnvForTests();
  t = await openSqliteTestStore();
  setStoreForTests(t.store);
  session = await beginSignIn({ openAppId: "oa-a", tenantId: "9007199254740993123", userId: "7", userName: "Alice", expiresAt: Date.now() + 8 * 3600_000 });
});
afterAll(async () => {
  setStoreForTests(undefined);
  await t.cleanup();
});

function bearer(token: string) {
  return new Request("http://localhost:3310/api/auth/session", { method: "POST", headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": "oa-a" } });
}

describe("the fallback session token", () => {
  it("is sealed, short-lived and carries ids only", async () => {
    const { token, expiresAt } = await issueSessionToken(session);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(token).not.toContain(session.tenantId);
    expect(await readSessionToken(token)).toEqual({ ...session, expiresAt });
    const i = token.length - 10;
    const tampered = `${token.slice(0, i)}${token[i] === "A" ? "B" : "A"}${token.slice(i + 1)}`;
    expect(await readSessionToken(tampered)).toBeUndefined();
    expect(await readSessionToken("")).toBeUndefined();
  });

  it("renews sliding, never past the sign-in's end", async () => {
    const { token } = await issueSessionToken({ ...session, expiresAt: Date.now() + 10 * 60_000 });
    const renewed = (await renewSessionToken(bearer(token)))!;
    expect(renewed.expiresAt).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
    expect((await readSessionToken(renewed.token))?.tenantId).toBe(session.tenantId);
    const response = await renewRoute(bearer(renewed.token));
    expect(response.status).toBe(200);
  });

  it("does not renew an expired sign-in, a forged token, or a cookie-only request", async () => {
    const { token } = await issueSessionToken(session, Date.now() + 1000);
    vi.useFakeTimers({ now: Date.now() + 5000, toFake: ["Date"] });
    try {
      expect(await renewSessionToken(bearer(token))).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    expect(await renewSessionToken(bearer("Fe26.2**forged"))).toBeUndefined();
    const refused = await renewRoute(new Request("http://localhost:3310/api/auth/session", { method: "POST", headers: { cookie: "ec_session=x" } }));
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe("reauth_required");
  });

  it("is no session without a live sign-in: none named, or revoked", async () => {
    const { signInId: _none, ...unsigned } = session;
    expect(await readSessionToken((await issueSessionToken(unsigned)).token)).toBeUndefined();
    const other = await beginSignIn({ ...unsigned, userId: "8" });
    const { token } = await issueSessionToken(other);
    expect(await readSessionToken(token)).toBeDefined();
    await endSignIns([other]);
    expect(await readSessionToken(token)).toBeUndefined();
    expect(await renewSessionToken(bearer(token))).toBeUndefined();
  });
});

describe("a tenant's data removed (disconnect)", () => {
  it("refuses its sign-ins on this instance at once, though the last look at them said live a moment ago", async () => {
    const { removeTenantData } = await import("@/lib/tenant-data/disconnect");
    const mine = await beginSignIn({ openAppId: "oa-a", tenantId: "4242", userId: "9", userName: "Bo", expiresAt: Date.now() + 3600_000 });
    const { token } = await issueSessionToken(mine);
    // Looked at now: this instance trusts that answer for a moment (SIGN_IN_CHECK_CACHE_MS).
    expect(await readSessionToken(token)).toBeDefined();
    await removeTenantData({ store: t.store, flushAudit: async () => undefined }, { openAppId: "oa-a", tenantId: "4242" });
    expect(await readSessionToken(token)).toBeUndefined();
    // Another tenant's sign-in is untouched.
    expect(await readSessionToken((await issueSessionToken(session)).token)).toBeDefined();
  });
});

describe("an environment id that plain objects already answer", () => {
  it("is never an openAppId, and never picks a session (a 500 the fuzz found: ?openAppId=toString)", async () => {
    for (const name of ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf"]) {
      expect(isOpenAppId(name), name).toBe(false);
      expect(await selectSession({}, name), name).toEqual({ openAppId: name });
    }
    expect(isOpenAppId("oa-alpha-7f3c9e21")).toBe(true);
  });
});
