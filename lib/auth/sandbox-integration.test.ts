import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxControl } from "@/lib/platform/testing/sandbox-control";
import { clearRefreshInFlight, findInstallation, markRefreshInFlight, refreshesInFlight, updateInstallationTokens } from "@/lib/store/installations";
import { testDialects, warnIfPostgresSkipped, type TestStore } from "@/lib/store/testing";
import { loadSandboxConfig } from "@/sandbox/config";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { ReauthRequiredError } from "@/lib/http/api-error";
import { getAccessToken, resumeInterruptedRefreshes } from "./access-token";
import { requireApiSession } from "./session";
import { APP_URL, configureApp, pageData, TestBrowser } from "./testing/harness";
import { startSecondAppProcess } from "./testing/second-process";

/**
 * The app's side of the flow against the real Platform Sandbox (the install and refresh of §5.2): install through the
 * sandbox's authorize, cloudinfo, token endpoint (rotation on) and users/current, then the refresh
 * rules counted by the sandbox itself (`GET /__sandbox/stats`).
 */

warnIfPostgresSkipped("sandbox integration (refresh storm) on PostgreSQL");

let sandbox: RunningSandbox;
let alpha: string;

beforeAll(async () => {
  const config = loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0", SANDBOX_APP_URL: APP_URL });
  sandbox = await startSandbox({ ...config, dbFile: ":memory:" });
  alpha = sandbox.urls.alpha!;
});
afterAll(() => sandbox.close());

const control = sandboxControl(() => alpha);

async function refreshGrants(): Promise<number> {
  const stats = (await control("/stats")) as { tokenGrants: Record<string, number> };
  return stats.tokenGrants.refresh_token ?? 0;
}

const KEY = { openAppId: "oa-alpha-7f3c9e21", tenantId: "80000000001" };

/** The marketplace install, with the sandbox's control plane standing in for the staff's clicks. */
async function installThroughSandbox(browser: TestBrowser): Promise<Response> {
  const { getOpenAppIdToken } = (await control("/cloudtokens", { environment: "alpha" })) as { getOpenAppIdToken: string };
  const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${encodeURIComponent(getOpenAppIdToken)}`, {
    headers: { referer: `${alpha}/application/mktapp/index.html` },
  });
  expect(entry.status).toBe(302);
  const authorize = new URL(entry.headers.get("location")!);
  const { callbackUrl } = (await control("/authorize", {
    environment: "alpha",
    redirect_uri: authorize.searchParams.get("redirect_uri"),
    state: authorize.searchParams.get("state"),
    install: true,
  })) as { callbackUrl: string };
  // The return page posts the return with the flow cookie (the code is exchanged on that post only).
  return browser.returnTo(callbackUrl);
}

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`against the Platform Sandbox on ${dialect.name}`, () => {
    let t: TestStore;
    beforeEach(async () => {
      await control("/reset", {});
      t = await dialect.open();
      configureApp([{ origin: alpha }, { origin: sandbox.urls.beta! }], t.store);
    });
    afterEach(() => t.cleanup());

    it("installs: the sandbox's HMAC, code, users/current and cloudinfo are accepted; the sandbox counts the app installed", async () => {
      const browser = new TestBrowser();
      const done = await installThroughSandbox(browser);
      expect(done.status).toBe(200);
      expect(pageData<{ target: string }>(await done.text())!.target).toBe(`${alpha}/application/mktapp/index.html?install=engage-console#/market`);
      const installation = await findInstallation(t.store, KEY);
      expect(installation).toMatchObject({ status: "active", tenantName: "Alpha Retail 阿尔法零售", installedByName: "Alice Admin 王丽" });
      const session = await requireApiSession(new Request(`${APP_URL}/api/x`, { headers: { cookie: browser.cookieHeader() } }));
      expect(session.ok && session.session).toMatchObject({ ...KEY, userId: "90000000001" });
      const { installations } = (await control("/installations")) as { installations: Array<{ environment: string }> };
      expect(installations.map((i) => i.environment)).toContain("alpha");
    });

    it("200 concurrent calls on a token about to expire → exactly 1 refresh grant counted by the sandbox", async () => {
      await installThroughSandbox(new TestBrowser());
      const installed = (await findInstallation(t.store, KEY))!;
      await updateInstallationTokens(t.store, KEY, { ...installed.tokens, accessTokenExpiresAt: Date.now() + 60_000 });
      const before = await refreshGrants();
      const results = await Promise.all(Array.from({ length: 200 }, () => getAccessToken(KEY)));
      expect((await refreshGrants()) - before).toBe(1);
      expect(new Set(results.map((r) => r.accessToken)).size).toBe(1);
      expect(results[0]!.apiUrl).toBe(alpha);
      // the new token works at the platform
      const me = await fetch(`${alpha}/v1/users/current?access_token=${encodeURIComponent(results[0]!.accessToken)}`);
      expect(me.status).toBe(200);
    });

    it.skipIf(dialect.name !== "postgres")("two app processes sharing PostgreSQL → exactly 1 refresh grant counted by the sandbox", async () => {
      await installThroughSandbox(new TestBrowser());
      const installed = (await findInstallation(t.store, KEY))!;
      await updateInstallationTokens(t.store, KEY, { ...installed.tokens, accessTokenExpiresAt: Date.now() + 60_000 });
      await control("/faults", { faults: [{ path: "/oauth2/token", latencyMs: 300 }] });
      const before = await refreshGrants();
      const second = await startSecondAppProcess(t, KEY);
      const theirs = second.go();
      const mine = await Promise.all(Array.from({ length: 100 }, () => getAccessToken(KEY)));
      const all = new Set([...mine.map((r) => r.accessToken), ...(await theirs)]);
      expect((await refreshGrants()) - before).toBe(1);
      expect(all.size).toBe(1);
    }, 30_000);

    it("with rotation on, no refresh token is lost over repeated refreshes", async () => {
      expect(((await control("/config")) as { refreshRotation: boolean }).refreshRotation).toBe(true);
      await installThroughSandbox(new TestBrowser());
      for (let i = 0; i < 4; i++) {
        const { accessToken } = await getAccessToken(KEY);
        const refreshed = await Promise.all(Array.from({ length: 20 }, () => getAccessToken(KEY, { rejectedAccessToken: accessToken })));
        expect(new Set(refreshed.map((r) => r.accessToken)).size).toBe(1);
      }
      expect((await findInstallation(t.store, KEY))?.status).toBe("active");
    });

    /** Makes every write of new tokens fail (or not): the state an instance killed between the platform's answer and the write leaves. */
    async function killTokenWrites(on: boolean) {
      const statements =
        dialect.name === "sqlite"
          ? on
            ? ["CREATE TRIGGER ec_kill BEFORE UPDATE OF access_token ON installations BEGIN SELECT RAISE(ABORT, 'killed before the write'); END"]
            : ["DROP TRIGGER ec_kill"]
          : on
            ? [
                "CREATE FUNCTION ec_kill() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'killed before the write'; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER ec_kill BEFORE UPDATE ON installations FOR EACH ROW WHEN (OLD.access_token IS DISTINCT FROM NEW.access_token) EXECUTE FUNCTION ec_kill()",
              ]
            : ["DROP TRIGGER ec_kill ON installations", "DROP FUNCTION ec_kill()"];
      for (const statement of statements) await sql.raw(statement).execute(t.store.db);
    }

    it("a rotated refresh token lost before the write is recovered within the platform's rotation grace", async () => {
      await control("/config", { refreshGraceSeconds: 30 });
      await installThroughSandbox(new TestBrowser());
      const { accessToken } = await getAccessToken(KEY);
      const before = await refreshGrants();
      await killTokenWrites(true);
      await expect(getAccessToken(KEY, { rejectedAccessToken: accessToken })).rejects.toThrow(/killed before the write/);
      await killTokenWrites(false);
      expect((await refreshGrants()) - before).toBe(1); // the platform rotated; the app never stored the pair
      const recovered = await getAccessToken(KEY, { rejectedAccessToken: accessToken });
      expect(recovered.accessToken).not.toBe(accessToken);
      expect((await findInstallation(t.store, KEY))?.status).toBe("active");
      // the stored pair is the live one: it refreshes again
      expect((await getAccessToken(KEY, { rejectedAccessToken: recovered.accessToken })).accessToken).not.toBe(recovered.accessToken);

      // Without a grace at the platform the same loss needs a new authorization (README: what remains).
      await control("/config", { refreshGraceSeconds: 0 });
      const current = await getAccessToken(KEY);
      await killTokenWrites(true);
      await expect(getAccessToken(KEY, { rejectedAccessToken: current.accessToken })).rejects.toThrow(/killed before the write/);
      await killTokenWrites(false);
      await expect(getAccessToken(KEY, { rejectedAccessToken: current.accessToken })).rejects.toBeInstanceOf(ReauthRequiredError);
    });

    it.skipIf(dialect.name !== "postgres")(
      "an app process killed after the platform rotated the refresh token and before the write → the next refresh recovers (rotation grace)",
      async () => {
        await control("/config", { refreshGraceSeconds: 30 });
        await installThroughSandbox(new TestBrowser());
        const installed = (await findInstallation(t.store, KEY))!;
        await updateInstallationTokens(t.store, KEY, { ...installed.tokens, accessTokenExpiresAt: Date.now() + 60_000 });
        const stored = (await findInstallation(t.store, KEY))!.tokens;
        // The write of the new pair waits 4 s in the database: the window in which the process dies.
        for (const statement of [
          "CREATE FUNCTION ec_slow() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(4); RETURN NEW; END $$ LANGUAGE plpgsql",
          "CREATE TRIGGER ec_slow BEFORE UPDATE ON installations FOR EACH ROW WHEN (OLD.access_token IS DISTINCT FROM NEW.access_token) EXECUTE FUNCTION ec_slow()",
        ])
          await sql.raw(statement).execute(t.store.db);
        const before = await refreshGrants();
        const second = await startSecondAppProcess(t, KEY, 1);
        const finished = second.go().catch(() => []);
        const deadline = Date.now() + 10_000;
        while ((await refreshGrants()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(await refreshGrants()).toBe(before + 1); // the platform answered and rotated
        second.kill();
        await finished;
        await sql.raw("DROP TRIGGER ec_slow ON installations").execute(t.store.db); // waits for the dead session's rollback
        await sql.raw("DROP FUNCTION ec_slow()").execute(t.store.db);
        // the new pair was never stored: the old refresh token is all the app has
        expect((await findInstallation(t.store, KEY))!.tokens.refreshToken).toBe(stored.refreshToken);
        const recovered = await getAccessToken(KEY);
        expect(recovered.accessToken).not.toBe(stored.accessToken);
        expect((await findInstallation(t.store, KEY))?.status).toBe("active");
        expect((await fetch(`${alpha}/v1/users/current?access_token=${encodeURIComponent(recovered.accessToken)}`)).status).toBe(200);
      },
      30_000,
    );

    it("refresh resume: killed after the platform rotated and before the write, the next start-up refreshes at once and nothing is lost (sandbox clock, no sleep)", async () => {
      await control("/config", { refreshGraceSeconds: 60 });
      const killMidRefresh = async () => {
        const { accessToken } = await getAccessToken(KEY);
        const stored = (await findInstallation(t.store, KEY))!.tokens.refreshToken;
        const before = await refreshGrants();
        await killTokenWrites(true);
        await expect(getAccessToken(KEY, { rejectedAccessToken: accessToken })).rejects.toThrow(/killed before the write/);
        await killTokenWrites(false);
        expect((await refreshGrants()) - before).toBe(1); // the platform rotated; the pair was never stored
        expect((await findInstallation(t.store, KEY))!.tokens.refreshToken).toBe(stored);
        return accessToken;
      };

      // Without the resume (the measurement before it): the next refresh comes 120 s later, past the 60 s grace → lost.
      await installThroughSandbox(new TestBrowser());
      const lostAt = await killMidRefresh();
      await control("/clock", { advanceSeconds: 120 });
      await expect(getAccessToken(KEY, { rejectedAccessToken: lostAt })).rejects.toBeInstanceOf(ReauthRequiredError);

      // With it: the refresh's mark survives the crash; a new instance's start-up finds it and refreshes
      // with the stored token 5 s later (inside the grace), so the request 120 s later finds a live pair.
      await installThroughSandbox(new TestBrowser());
      const interrupted = await killMidRefresh();
      expect(await refreshesInFlight(t.store)).toEqual([expect.objectContaining(KEY)]);
      await control("/clock", { advanceSeconds: 5 });
      expect(await resumeInterruptedRefreshes()).toEqual({ found: 1, recovered: 1, reauthRequired: 0, failed: 0 });
      expect(await refreshesInFlight(t.store)).toEqual([]);
      const resumed = (await findInstallation(t.store, KEY))!;
      expect(resumed.tokens.accessToken).not.toBe(interrupted);
      await control("/clock", { advanceSeconds: 120 });
      const later = await getAccessToken(KEY, { rejectedAccessToken: resumed.tokens.accessToken });
      expect(later.accessToken).not.toBe(resumed.tokens.accessToken);
      expect((await findInstallation(t.store, KEY))?.status).toBe("active");
      // nothing left to resume: a second start-up does nothing
      expect(await resumeInterruptedRefreshes()).toEqual({ found: 0, recovered: 0, reauthRequired: 0, failed: 0 });
    });

    it("refresh resume: a mark whose refresh another instance has since completed is not refreshed again", async () => {
      await installThroughSandbox(new TestBrowser());
      const { accessToken } = await getAccessToken(KEY);
      await markRefreshInFlight(t.store, KEY);
      await getAccessToken(KEY, { rejectedAccessToken: accessToken }); // completes, and removes the mark
      await markRefreshInFlight(t.store, KEY);
      await clearRefreshInFlight(KEY, t.store.db);
      const before = await refreshGrants();
      expect(await resumeInterruptedRefreshes()).toMatchObject({ found: 0 });
      expect((await refreshGrants()) - before).toBe(0);
    });

    it("two staff of beta (observed users/current, no id) get two keys; one's 'sign out everywhere' leaves the other signed in", async () => {
      const beta = sandbox.urls.beta!;
      const signIn = async (staffEmail: string) => {
        const browser = new TestBrowser();
        const start = await browser.request("/api/auth/start?openAppId=oa-beta-2d81b6a4");
        const authorize = new URL(start.headers.get("location")!);
        const { callbackUrl } = (await control("/authorize", { environment: "beta", redirect_uri: authorize.searchParams.get("redirect_uri"), state: authorize.searchParams.get("state"), staffEmail })) as { callbackUrl: string };
        const done = await browser.returnTo(callbackUrl);
        expect(done.status).toBe(200);
        const check = await requireApiSession(new Request(`${APP_URL}/api/x`, { headers: { cookie: browser.cookieHeader(), "X-Open-App-Id": "oa-beta-2d81b6a4" } }));
        if (!check.ok) throw new Error("no session");
        return { browser, session: check.session };
      };
      const { getOpenAppIdToken } = (await control("/cloudtokens", { environment: "beta" })) as { getOpenAppIdToken: string };
      const installer = new TestBrowser();
      const entry = await installer.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${encodeURIComponent(getOpenAppIdToken)}`, { headers: { referer: `${beta}/application/mktapp/index.html` } });
      const authorize = new URL(entry.headers.get("location")!);
      const { callbackUrl } = (await control("/authorize", { environment: "beta", redirect_uri: authorize.searchParams.get("redirect_uri"), state: authorize.searchParams.get("state"), install: true })) as { callbackUrl: string };
      expect((await installer.returnTo(callbackUrl)).status).toBe(200);

      const bob = await signIn("admin@beta.test");
      const carol = await signIn("carol@beta.test");
      expect(bob.session).toMatchObject({ userName: "Bob Admin 李博", userId: expect.stringMatching(/^k-/) });
      expect(carol.session).toMatchObject({ userName: "Carol Clerk 陈洁", userId: expect.stringMatching(/^k-/) });
      expect(carol.session.userId).not.toBe(bob.session.userId);
      const out = await bob.browser.request("/api/auth/logout?openAppId=oa-beta-2d81b6a4&everywhere=1", { method: "POST", headers: { origin: APP_URL } });
      expect(out.status).toBe(200);
      const stillIn = (b: TestBrowser) => requireApiSession(new Request(`${APP_URL}/api/x`, { headers: { cookie: b.cookieHeader(), "X-Open-App-Id": "oa-beta-2d81b6a4" } })).then((r) => r.ok);
      expect(await stillIn(bob.browser)).toBe(false);
      expect(await stillIn(carol.browser)).toBe(true);
    });

    it("a revoked refresh token → reauth_required; a reinstall clears it", async () => {
      await installThroughSandbox(new TestBrowser());
      await control("/tokens/revoke", { environment: "alpha", accessTokens: true });
      const { accessToken } = await getAccessToken(KEY);
      await expect(getAccessToken(KEY, { rejectedAccessToken: accessToken })).rejects.toBeInstanceOf(ReauthRequiredError);
      expect((await findInstallation(t.store, KEY))?.status).toBe("reauth_required");
      await installThroughSandbox(new TestBrowser());
      expect((await findInstallation(t.store, KEY))?.status).toBe("active");
      const again = await getAccessToken(KEY);
      expect((await getAccessToken(KEY, { rejectedAccessToken: again.accessToken })).accessToken).not.toBe(again.accessToken);
    });
  });
}
