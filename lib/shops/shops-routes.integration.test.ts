import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createAppCall } from "@/lib/api/browser-fetch";
import type { ApiError } from "@/lib/api/api-error";
import type { ConsoleSession } from "@/lib/auth/session";
import { handleMediaImport, handleMediaImportList } from "@/lib/media/media-routes";
import { startTestSandbox } from "@/lib/platform/testing/sandbox";
import { openSqliteTestStore } from "@/lib/store/testing";
import { placeShopErrors, shopInfoAllOf, shopFormFrom, emptyShopForm, type ShopForm } from "./shop-form";
import { handleGroupCreate, handleGroupList, handleGroupRead, handleShopAddKnown, handleShopCreate, handleShopDelete, handleShopGet, handleShopList, handleShopUpdate, type ShopRouteDeps } from "./shops-routes";

/**
 * The shop and media routes end to end without a browser: the browser's `appRequest` → the
 * route handlers → the running Platform Sandbox with a real token, the register in a SQLite store.
 */

const APP = "http://app.test";
const { sandbox } = await startTestSandbox();
const { store, cleanup } = await openSqliteTestStore();
afterAll(async () => {
  await cleanup();
  await sandbox.close();
});

async function control(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.urls.alpha}/__sandbox${path}`, { method: body === undefined ? "GET" : "POST", body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}
const token = (await control("/tokens", { environment: "alpha" })).access_token as string;
const calls = async (key: string) => ((await control("/stats")) as { calls: Record<string, number> }).calls[key] ?? 0;

let clock = 1_700_000_000_000;
const sessionOf = (tenantId: string): ConsoleSession => ({ openAppId: "alpha-app", tenantId, userId: "7", userName: "王小明", expiresAt: Date.now() + 3_600_000 });
const depsFor = (session: ConsoleSession): ShopRouteDeps => ({
  requireSession: async () => ({ ok: true, session }),
  getAccessToken: async () => ({ accessToken: token, apiUrl: sandbox.urls.alpha! }),
  isReauthRequired: () => false,
  log: { info() {}, warn() {}, error() {} },
  store: async () => store,
  now: () => ++clock,
});

/** The app's routes as Next would dispatch them, from the app's own origin. */
function routeOf(method: string, path: string) {
  if (path.startsWith("/api/media/imports")) return method === "GET" ? handleMediaImportList : handleMediaImport;
  if (path === "/api/shops/known") return handleShopAddKnown;
  if (/^\/api\/shops\/[^/]+$/.test(path)) return { GET: handleShopGet, PUT: handleShopUpdate, DELETE: handleShopDelete }[method]!;
  if (path.startsWith("/api/shops")) return method === "GET" ? handleShopList : handleShopCreate;
  if (/^\/api\/shop-groups\/[^/]+$/.test(path)) return handleGroupRead;
  return method === "GET" ? handleGroupList : handleGroupCreate;
}
const clientFor = (session: ConsoleSession) =>
  createAppCall({
    openAppId: () => "alpha-app",
    sessionToken: () => undefined,
    storage: () => undefined,
    onReauth: () => {},
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set("origin", APP);
      const request = new Request(`${APP}${String(url)}`, { ...init, headers });
      return routeOf(request.method, new URL(request.url).pathname)(request, depsFor(session));
    },
  });
const app = clientFor(sessionOf("80000000001"));
const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("the call should fail"), (error: unknown) => error as ApiError);

const formWith = (sid: string, patch: Partial<ShopForm> = {}): ShopForm => ({
  ...emptyShopForm(),
  sid,
  businessName: "贝果咖啡",
  branchName: "人民广场店",
  telephone: "021-60000000",
  province: "上海",
  city: "上海市",
  district: "黄浦区",
  address: "人民大道 1 号",
  categories: ["美食,咖啡厅"],
  longitude: "121.4737",
  latitude: "31.2304",
  ...patch,
});
const body = (form: ShopForm, original?: string | null) => ({ shopInfoAll: shopInfoAllOf(form, original) });
const platformShop = async (sid: string) => {
  const res = await fetch(`${sandbox.urls.alpha}/v1/stores?access_token=${token}`, { method: "POST", body: JSON.stringify({ shopInfoAll: JSON.stringify(body(formWith(sid, { branchName: `平台店 ${sid}` })).shopInfoAll) }) });
  return /"id":(\d+)/.exec(await res.text())![1]!;
};

beforeEach(() => {
  clock += 1000;
});

describe("shops through the app's routes (§4.8)", () => {
  it("creates a shop on the platform and registers it; a second shop with the register's sid is refused before sending", async () => {
    const created = await app("shops.create", { body: body(formWith("R-1")) });
    expect(created.shop).toMatchObject({ sid: "R-1", businessName: "贝果咖啡", branchName: "人民广场店", source: "created", shopStatus: "1" });
    expect(created.shop.id).toMatch(/^\d{16,}$/);
    expect(JSON.parse(created.shop.shopInfoAll!).business.base_info.longitude).toBe(121.4737);
    const sent = await calls("POST /v1/stores");
    const error = await failure(app("shops.create", { body: body(formWith("R-1", { branchName: "另一家" })) }));
    expect(error).toMatchObject({ status: 409, code: "sid_taken" });
    expect(error.fieldErrors[0]).toMatchObject({ field: "sid" });
    expect(await calls("POST /v1/stores")).toBe(sent);
  });

  it("a refusal of the platform (§7.5 {error}) comes back as 422 with its message, placed on the field it names", async () => {
    const unseen = await platformShop("R-PLATFORM");
    expect(unseen).toBeTruthy();
    const error = await failure(app("shops.create", { body: body(formWith("R-PLATFORM")) }));
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/base_info\.sid R-PLATFORM is already used/);
    expect(placeShopErrors(error.fieldErrors, error.message).byField).toEqual({ sid: error.message });
    expect((await app("shops.list", { query: { q: "R-PLATFORM" } })).shops).toEqual([]);
  });

  it("input that breaks §4.8 is refused with field errors and never sent", async () => {
    const sent = await calls("POST /v1/stores");
    const error = await failure(app("shops.create", { body: { shopInfoAll: { business: { base_info: { sid: "X" } } } } }));
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual(expect.arrayContaining([{ field: "shopInfoAll.business.base_info.telephone", message: expect.any(String) }]));
    expect(Object.keys(placeShopErrors(error.fieldErrors, error.message).byField)).toEqual(expect.arrayContaining(["telephone", "city", "longitude", "categories"]));
    expect((await failure(app("shops.create", { body: "not an object" as never }))).status).toBe(422);
    expect(await calls("POST /v1/stores")).toBe(sent);
  });

  it("updates a shop (keeping base_info fields the form does not show) and deletes it: message success is success", async () => {
    const { shop } = await app("shops.create", { body: body(formWith("R-2")) });
    const original = JSON.stringify({ business: { base_info: { ...JSON.parse(shop.shopInfoAll!).business.base_info, offset_type: 1, special: "x" } } });
    const updated = await app("shops.update", { params: { id: shop.id }, body: body({ ...shopFormFrom(shop.shopInfoAll), branchName: "南京路店" }, original) });
    expect(updated.shop).toMatchObject({ id: shop.id, branchName: "南京路店", source: "created" });
    expect(JSON.parse(updated.shop.shopInfoAll!).business.base_info).toMatchObject({ offset_type: 1, special: "x", branch_name: "南京路店" });
    expect((await app("shops.get", { params: { id: shop.id } })).shop.branchName).toBe("南京路店");
    expect(await app("shops.delete", { params: { id: shop.id } })).toEqual({ deleted: shop.id });
    expect((await failure(app("shops.get", { params: { id: shop.id } }))).status).toBe(404);
    const rows = (await control("/stores")) as { rows: Array<{ id: string }> };
    expect(rows.rows.map((r) => r.id)).not.toContain(shop.id);
    // Deleting it again: the platform's refusal, the register unchanged.
    expect((await failure(app("shops.delete", { params: { id: shop.id } }))).status).toBe(422);
  });

  it("a shop added by id is unseen until a group read returns it; group creation names success and failed ids", async () => {
    const hidden = await platformShop("R-GROUPED");
    const added = await app("shops.addKnown", { body: { id: hidden } });
    expect(added).toMatchObject({ added: true, shop: { id: hidden, sid: null, source: "manual", seenAt: null } });
    expect((await app("shops.addKnown", { body: { id: hidden } })).added).toBe(false);
    expect((await failure(app("shops.addKnown", { body: { id: "12ab" } }))).status).toBe(422);
    expect((await app("shops.list", { query: { state: "unseen" } })).shops.map((s) => s.id)).toEqual([hidden]);

    const { shop } = await app("shops.create", { body: body(formWith("R-3")) });
    const bogus = "9007199254749999";
    await app("shops.addKnown", { body: { id: bogus } });
    const result = await app("shopGroups.create", { body: { name: "测试组", remark: "集成测试", shopIds: [shop.id, hidden, bogus, shop.id] } });
    expect(result.success).toEqual([
      { id: shop.id, name: "贝果咖啡(人民广场店)" },
      { id: hidden, name: null },
    ]);
    expect(result.failed).toEqual([{ id: bogus, name: null }]);
    expect(result.group).toMatchObject({ name: "测试组", remark: "集成测试", origin: "created", createdByName: "王小明", shopCount: 2 });

    const read = await app("shopGroups.get", { params: { id: result.group.id } });
    expect(read.shops.map((s) => s.id)).toEqual([shop.id, hidden].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    const now = (await app("shops.get", { params: { id: hidden } })).shop;
    expect(now).toMatchObject({ sid: "R-GROUPED", branchName: "平台店 R-GROUPED", source: "group" });
    expect(now.seenAt).not.toBeNull();
    expect((await app("shopGroups.list", {})).groups[0]).toMatchObject({ id: result.group.id, readAt: expect.any(Number) });
  });

  it("a group the app never saw is opened by id and remembered; its shops join the register", async () => {
    const a = await platformShop("R-OPEN-A");
    await fetch(`${sandbox.urls.alpha}/v1/storesGroups?access_token=${token}`, { method: "POST", body: JSON.stringify({ name: "外部组", remark: "平台建的", shopList: a }) });
    const groups = (await control("/store-groups")) as { rows: Array<{ id: string; name: string }> };
    const id = groups.rows.find((g) => g.name === "外部组")!.id;
    const read = await app("shopGroups.get", { params: { id: id } });
    expect(read.group).toMatchObject({ id, origin: "opened", shopCount: 1 });
    expect(read.shops).toEqual([expect.objectContaining({ id: a, sid: "R-OPEN-A", source: "group" })]);
    expect((await failure(app("shopGroups.get", { params: { id: "123" } }))).status).toBe(422);
    expect((await failure(app("shopGroups.get", { params: { id: "abc" } }))).status).toBe(404);
  });

  it("search, sort and tenant scope of the register", async () => {
    const list = await app("shops.list", { query: { q: "r-", sort: "sid", order: "asc" } });
    const sids = list.shops.map((s) => s.sid);
    expect(sids.length).toBeGreaterThan(2);
    expect(sids).toEqual([...sids].sort());
    expect((await app("shops.list", { query: { q: "100%" } })).shops).toEqual([]);
    expect((await failure(app("shops.list", { query: { sort: "nope" as never } }))).status).toBe(422);
    const other = clientFor(sessionOf("80000000002"));
    expect(await other("shops.list", { query: {} })).toEqual({ shops: [], total: 0 });
  });
});

describe("media imports through the app's route (§4.6)", () => {
  it("sends the file list, keeps the task ids with who started which files; a bad path is never sent", async () => {
    for (const [path, content] of [
      ["oss://media-bucket/2026/views.csv", "2026-11-01,mobile,13800000001,banner-a,3\n"],
      ["oss://media-bucket/2026/mixed.csv", "event.mediaClick,2026-11-01,mobile,13800000001,banner-a,1\n"],
    ]) {
      await fetch(`${sandbox.urls.alpha}/__sandbox/storage`, { method: "PUT", body: JSON.stringify({ environment: "alpha", path, content }) });
    }
    const fileList = [{ file: "oss://media-bucket/2026/views.csv", eventType: "event.mediaView" as const }, { file: "oss://media-bucket/2026/mixed.csv" }];
    const started = await app("media.import", { body: { fileList } });
    expect(started.import).toMatchObject({ startedBy: "7", startedByName: "王小明", files: fileList });
    expect(started.import.taskIds).toHaveLength(2);
    const tasks = (await control("/media/tasks")) as { rows: Array<{ id: string; file: string; eventType: string | null }> };
    expect(tasks.rows.slice(-2)).toMatchObject([
      { id: started.import.taskIds[0], file: fileList[0]!.file, eventType: "event.mediaView" },
      { id: started.import.taskIds[1], file: fileList[1]!.file, eventType: null },
    ]);
    expect((await app("media.imports", {})).imports[0]).toEqual(started.import);

    const sent = await calls("POST /v1/third_party_data/importData");
    const bad = await failure(app("media.import", { body: { fileList: [{ file: "s3://bucket/x.csv" }, { file: "oss://media-bucket/folder/" }] } }));
    expect(bad.status).toBe(422);
    expect(bad.fieldErrors.map((e) => e.field)).toEqual(["fileList.0.file", "fileList.1.file"]);
    expect(await calls("POST /v1/third_party_data/importData")).toBe(sent);
    // A file the platform does not have: its {error} (§7.5), no task kept.
    const missing = await failure(app("media.import", { body: { fileList: [{ file: "oss://media-bucket/none.csv" }] } }));
    expect(missing.status).toBe(422);
    expect((await app("media.imports", {})).imports).toHaveLength(1);
  });
});
