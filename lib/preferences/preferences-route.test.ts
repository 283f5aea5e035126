import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP, fakePlatformForRoutes, SAME_ORIGIN } from "@/lib/proxy/testing/proxy-deps";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import type { Preferences } from "./preference-rules";
import { handlePreferencePut, handlePreferencesGet, type PreferencesRouteDeps } from "./preferences-route";
import { signedIn } from "@/lib/platform/testing/fake-session";

const platform = fakePlatformForRoutes("at_preferencesroutetokenpreferences", { retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 2_000 });

let t: TestStore;
beforeEach(async () => {
  t = await openSqliteTestStore();
});
afterEach(() => t.cleanup());

function depsFor(tenantId = "1", userId = "7"): PreferencesRouteDeps {
  const { deps } = platform.makeDeps({ requireSession: signedIn({ openAppId: "alpha-app", tenantId, userId, userName: `user ${userId}` } as never) });
  return { ...deps, store: async () => t.store };
}
const put = (body: unknown, headers: Record<string, string> = SAME_ORIGIN) =>
  new Request(`${APP}/api/preferences`, { method: "PUT", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
const get = () => new Request(`${APP}/api/preferences`, { headers: { "x-engage-request": "1" } });
const read = async (deps: PreferencesRouteDeps) => (await (await handlePreferencesGet(get(), deps)).json()) as Preferences;

describe("/api/preferences", () => {
  it("PUT labels, GET them in the same tenant (another user too), not in another tenant", async () => {
    const res = await handlePreferencePut(put({ key: "attrLabels", value: { attr1: "Store" } }), depsFor());
    expect(res.status).toBe(200);
    expect(((await res.json()) as Preferences).attrLabels).toEqual({ attr1: "Store" });
    expect((await read(depsFor("1", "8"))).attrLabels).toEqual({ attr1: "Store" });
    expect((await read(depsFor("2"))).attrLabels).toEqual({});
  });

  it("PUT columns is per user", async () => {
    expect((await handlePreferencePut(put({ key: "customerColumns", value: ["id", "email"] }), depsFor())).status).toBe(200);
    expect((await read(depsFor())).customerColumns).toEqual(["email", "id"]);
    expect((await read(depsFor("1", "8"))).customerColumns).toBeNull();
  });

  it("a user without a key (no id, no login from the platform) keeps no personal columns: 409, and none leak to the tenant's row", async () => {
    const res = await handlePreferencePut(put({ key: "customerColumns", value: ["id"] }), depsFor("1", ""));
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("no_user_key");
    expect((await read(depsFor("1", ""))).customerColumns).toBeNull();
    expect((await read(depsFor("1", "8"))).customerColumns).toBeNull();
    expect((await handlePreferencePut(put({ key: "attrLabels", value: { attr1: "Store" } }), depsFor("1", ""))).status).toBe(200);
  });

  it.each([
    ["an unknown key", { key: "theme", value: "dark" }, "key"],
    ["an unknown attribute", { key: "attrLabels", value: { attr0: "x" } }, "value.attr0"],
    ["a long label", { key: "attrLabels", value: { attr1: "x".repeat(65) } }, "value.attr1"],
    ["an unknown column", { key: "customerColumns", value: ["id", "secret"] }, "value.1"],
    ["an extra field", { key: "attrLabels", value: {}, more: 1 }, "body"],
    ["not an object", [1], "body"],
  ])("refuses %s with the wrapper's 422 invalid_input naming the field, and stores nothing", async (_what, body, field) => {
    const res = await handlePreferencePut(put(body), depsFor());
    expect(res.status).toBe(422);
    const answer = (await res.json()) as { error: { code: string; fieldErrors: { field: string }[] } };
    expect(answer.error.code).toBe("invalid_input");
    expect(answer.error.fieldErrors.map((e) => e.field)).toContain(field);
    expect(await t.store.db.selectFrom("console_preferences").selectAll().execute()).toEqual([]);
  });

  it("refuses a body that is not JSON with 400 invalid_json (not a schema failure), and stores nothing", async () => {
    const res = await handlePreferencePut(put("{oops"), depsFor());
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    expect(await t.store.db.selectFrom("console_preferences").selectAll().execute()).toEqual([]);
  });

  it("refuses a body that is too large (413), not a 5xx", async () => {
    const res = await handlePreferencePut(put({ key: "attrLabels", value: { attr1: "x".repeat(40_000) } }), depsFor());
    expect(res.status).toBe(413);
  });

  it("a PUT without the CSRF proof is refused and changes nothing", async () => {
    const res = await handlePreferencePut(put({ key: "attrLabels", value: { attr1: "Store" } }, {}), depsFor());
    expect(res.status).toBe(403);
    expect(await t.store.db.selectFrom("console_preferences").selectAll().execute()).toEqual([]);
  });
});
