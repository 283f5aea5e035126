import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callPlatform } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { findInstallation, saveEnvironment, saveInstallation, updateInstallationTokens } from "@/lib/store/installations";
import { testDialects, warnIfPostgresSkipped, type TestStore } from "@/lib/store/testing";
import { ReauthRequiredError } from "@/lib/http/api-error";
import { getAccessToken } from "./access-token";
import { installationLifecycle } from "./lifecycle";
import { startFakePlatform, type FakePlatform } from "./testing/fake-platform";
import { CLIENT, configureApp } from "./testing/harness";
import { startSecondAppProcess } from "./testing/second-process";

warnIfPostgresSkipped("refresh single-flight across processes and the refresh battery on PostgreSQL");

let platform: FakePlatform;
const KEY = { openAppId: "oa-refresh-test", tenantId: "9007199254740993123" };

const disconnected: Array<{ openAppId: string; tenantId: string }> = [];
beforeAll(async () => {
  platform = await startFakePlatform({ ...CLIENT, openAppId: KEY.openAppId });
  installationLifecycle().on("disconnected", "test-probe", async ({ key }) => void disconnected.push(key));
});
afterAll(() => platform.close());

/** An installation whose access token expires in one minute (inside the refresh margin). */
async function installAboutToExpire(t: TestStore): Promise<{ accessToken: string; refreshToken: string }> {
  await saveEnvironment(t.store, { openAppId: KEY.openAppId, authDomain: platform.origin, apiDomain: platform.origin });
  // real tokens of the fake platform, through a code it issued
  const authorize = await fetch(`${platform.origin}/oauth2/authorize?client_id=${CLIENT.clientId}&redirect_uri=http://localhost:3310/api/auth/callback&response_type=code&state=x`, { redirect: "manual" });
  const code = new URL(authorize.headers.get("location")!).searchParams.get("code")!;
  const grant = await callPlatform(
    operations["auth.exchangeCode"],
    { body: { grant_type: "authorization_code", code, redirect_uri: "http://localhost:3310/api/auth/callback" } },
    { authUrl: platform.origin, clientCredentials: CLIENT },
  );
  await saveInstallation(t.store, { ...KEY, tokens: { accessToken: grant.access_token, refreshToken: grant.refresh_token!, accessTokenExpiresAt: Date.now() + 60_000 } });
  platform.grants = {};
  return { accessToken: grant.access_token, refreshToken: grant.refresh_token! };
}

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`access tokens on ${dialect.name}`, () => {
    let t: TestStore;
    beforeEach(async () => {
      t = await dialect.open();
      configureApp([platform], t.store);
      platform.rotate = true;
      platform.tokenLatencyMs = 0;
    });
    afterEach(() => t.cleanup());

    it("returns a fresh token without calling the platform", async () => {
      await installAboutToExpire(t);
      await updateInstallationTokens(t.store, KEY, { accessToken: "fresh", refreshToken: "r", accessTokenExpiresAt: Date.now() + 3_600_000 });
      expect(await getAccessToken(KEY)).toEqual({ accessToken: "fresh", apiUrl: platform.origin });
      expect(platform.grants.refresh_token ?? 0).toBe(0);
    });

    it("200 concurrent calls on a token about to expire make exactly 1 refresh grant", async () => {
      const old = await installAboutToExpire(t);
      platform.tokenLatencyMs = 50;
      const results = await Promise.all(Array.from({ length: 200 }, () => getAccessToken(KEY)));
      expect(platform.grants.refresh_token).toBe(1);
      const tokens = new Set(results.map((r) => r.accessToken));
      expect(tokens.size).toBe(1);
      expect(tokens.has(old.accessToken)).toBe(false);
      const stored = await findInstallation(t.store, KEY);
      expect(stored?.tokens.accessToken).toBe([...tokens][0]);
      expect(stored!.tokens.accessTokenExpiresAt - Date.now()).toBeGreaterThan(7000 * 1000);
    });

    it("with rotation on, never loses a refresh token over many refreshes", async () => {
      await installAboutToExpire(t);
      for (let i = 0; i < 5; i++) {
        const { accessToken } = await getAccessToken(KEY);
        await Promise.all([getAccessToken(KEY, { rejectedAccessToken: accessToken }), getAccessToken(KEY, { rejectedAccessToken: accessToken })]);
        const stored = await findInstallation(t.store, KEY);
        // the stored refresh token is the one the platform holds valid
        expect(platform.validRefreshTokens.has(stored!.tokens.refreshToken)).toBe(true);
        expect(stored?.status).toBe("active");
      }
      // one refresh of the token about to expire, then one per refused token
      expect(platform.grants.refresh_token).toBe(6);
    });

    it("forceRefresh without the refused token keeps a token refreshed moments ago", async () => {
      await installAboutToExpire(t);
      const first = await getAccessToken(KEY, { forceRefresh: true });
      const second = await getAccessToken(KEY, { forceRefresh: true });
      expect(second.accessToken).toBe(first.accessToken);
      expect(platform.grants.refresh_token).toBe(1);
    });

    it("replaces a token the platform refused, once", async () => {
      const old = await installAboutToExpire(t);
      await updateInstallationTokens(t.store, KEY, { ...old, accessTokenExpiresAt: Date.now() + 3_600_000 });
      const refused = { forceRefresh: true, rejectedAccessToken: old.accessToken };
      const [a, b] = await Promise.all([getAccessToken(KEY, refused), getAccessToken(KEY, refused)]);
      expect(a.accessToken).not.toBe(old.accessToken);
      expect(b.accessToken).toBe(a.accessToken);
      // a late caller refused with the old token gets the new one without another grant
      expect((await getAccessToken(KEY, refused)).accessToken).toBe(a.accessToken);
      expect(platform.grants.refresh_token).toBe(1);
    });

    it("a revoked refresh token marks the installation reauth_required; a reinstall clears it", async () => {
      await installAboutToExpire(t);
      platform.revokeRefreshTokens();
      await expect(getAccessToken(KEY)).rejects.toBeInstanceOf(ReauthRequiredError);
      expect((await findInstallation(t.store, KEY))?.status).toBe("reauth_required");
      // later calls do not hit the platform again
      await expect(getAccessToken(KEY)).rejects.toBeInstanceOf(ReauthRequiredError);
      expect(platform.grants.refresh_token).toBe(1);
      await installAboutToExpire(t);
      expect((await findInstallation(t.store, KEY))?.status).toBe("active");
      expect((await getAccessToken(KEY)).accessToken).toMatch(/^at_/);
    });

    it("a refused refresh publishes `disconnected` once for the installation (features subscribe)", async () => {
      await installAboutToExpire(t);
      platform.revokeRefreshTokens();
      const before = disconnected.length;
      await expect(getAccessToken(KEY)).rejects.toBeInstanceOf(ReauthRequiredError);
      await expect(getAccessToken(KEY)).rejects.toBeInstanceOf(ReauthRequiredError);
      expect(disconnected.slice(before)).toEqual([KEY]);
    });

    it("a network error does not mark the installation", async () => {
      await installAboutToExpire(t);
      await saveEnvironment(t.store, { openAppId: KEY.openAppId, authDomain: "http://127.0.0.1:9", apiDomain: platform.origin });
      await expect(getAccessToken(KEY)).rejects.not.toBeInstanceOf(ReauthRequiredError);
      expect((await findInstallation(t.store, KEY))?.status).toBe("active");
    });

    it("an unknown installation needs authorization", async () => {
      await expect(getAccessToken({ openAppId: KEY.openAppId, tenantId: "1" })).rejects.toBeInstanceOf(ReauthRequiredError);
    });

    it.skipIf(dialect.name !== "postgres")("two app processes sharing PostgreSQL make exactly 1 refresh grant", async () => {
      await installAboutToExpire(t);
      platform.tokenLatencyMs = 300;
      const second = await startSecondAppProcess(t, KEY);
      const theirs = second.go();
      const mine = await Promise.all(Array.from({ length: 100 }, () => getAccessToken(KEY)));
      const theirTokens = await theirs;
      expect(platform.grants.refresh_token).toBe(1);
      const all = new Set([...mine.map((r) => r.accessToken), ...theirTokens]);
      expect(all.size).toBe(1);
      expect([...all][0]).toMatch(/^at_/);
    }, 30_000);
  });
}
