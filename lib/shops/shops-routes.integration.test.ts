import { sql } from "kysely";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createAppCall } from "@/lib/api/browser-fetch";
import type { ApiError } from "@/lib/http/api-error";
import type { ConsoleSession } from "@/lib/auth/session";
import { handleMediaImport, handleMediaImportList } from "@/lib/media/media-routes";
import { routeClientDeps } from "@/lib/proxy/testing/app-client";
import { signedIn } from "@/lib/platform/testing/fake-session";
import { startTestSandbox } from "@/lib/platform/testing/sandbox";
import { sandboxCalls, sandboxToken } from "@/lib/platform/testing/sandbox-control";
import { sandboxProxyDeps } from "@/lib/proxy/testing/sandbox-deps";
import { openSqliteTestStore } from "@/lib/store/testing";
import { placeShopErrors, shopInfoAllOf, shopFormFrom, type ShopForm } from "./shop-form";
import { sampleShopForm } from "./testing";
import { handleGroupCreate, handleGroupList, handleGroupRead, handleShopAddKnown, handleShopCreate, handleShopDelete, handleShopGet, handleShopList, handleShopUpdate, type ShopRouteDeps } from "./shops-routes";

/**
 * The shop and media routes end to end without a browser: the browser's `appRequest` → the
 * route handlers → the running Platform Sandbox with a real token, the register in a SQLite store.
 */

const APP = "http://app.test";
const { sandbox, control } = await startTestSandbox();
const { store, cleanup } = await openSqliteTestStore();
afterAll(async () => {
  await cleanup();
  await sandbox.close();
});

const token = await sandboxToken(control);
const calls = async (key: string) => (await sandboxCalls(control))[key] ?? 0;

let clock = 1_700_000_000_000;
const sessionOf = (tenantId: string): ConsoleSession => ({ openAppId: "alpha-app", tenantId, userId: "7", userName: "王小明", expiresAt: Date.now() + 3_600_000 });
const depsFor = (session: ConsoleSession): ShopRouteDeps => ({
  ...sandboxProxyDeps(sandbox.urls.alpha!, token),
  requireSession: signedIn(session),
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
  createAppCall(routeClientDeps((request) => routeOf(request.method, new URL(request.url).pathname)(request, depsFor(session)), APP));
const app = clientFor(sessionOf("80000000001"));
const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("the call should fail"), (error: unknown) => error as ApiError);
/** A creation with the body as a test writes it (a request key, a bad value): the route is what checks it. */
const post = <N extends "shops.create" | "shopGroups.create">(name: N, sent: unknown) => app(name, { body: sent } as never);

const formWith = sampleShopForm;
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

  it("a cross-site GET of a group (the SameSite=None cookie, no app header) is 403: no platform call, the register is not written", async () => {
    const a = await platformShop("R-XSITE-A");
    await fetch(`${sandbox.urls.alpha}/v1/storesGroups?access_token=${token}`, { method: "POST", body: JSON.stringify({ name: "跨站组", remark: "平台建的", shopList: a }) });
    const id = ((await control("/store-groups")) as { rows: Array<{ id: string; name: string }> }).rows.find((g) => g.name === "跨站组")!.id;
    const groupReads = async () => Object.entries(((await control("/stats")) as { calls: Record<string, number> }).calls).filter(([k]) => k.startsWith("GET") && k.includes("storesGroups")).reduce((n, [, c]) => n + c, 0);
    const before = await groupReads();
    expect(before).toBeGreaterThan(0); // the earlier test's read was counted: the count is the right one
    const session = sessionOf("80000000001");
    for (const headers of [{}, { "sec-fetch-site": "cross-site" }, { "x-engage-request": "1", origin: "http://evil.test" }] as Array<Record<string, string>>) {
      const res = await handleGroupRead(new Request(`${APP}/api/shop-groups/${id}`, { headers }), depsFor(session));
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await groupReads()).toBe(before);
    expect((await app("shops.list", { query: { q: "R-XSITE-A" } })).total).toBe(0);
    expect((await app("shopGroups.list", {})).groups.map((g) => g.id)).not.toContain(id);
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

describe("creations are recorded before the platform call and completed after (the dialog's request key)", () => {
  const posts = async (what: string) => Object.entries(((await control("/stats")) as { calls: Record<string, number> }).calls).filter(([k]) => k.startsWith("POST") && k.includes(what)).reduce((n, [, c]) => n + c, 0);
  const intents = () => store.db.selectFrom("shop_write_requests").selectAll().execute();

  it("the same request key twice is one shop and one platform call; the repeat answers the first shop", async () => {
    const sent = await calls("POST /v1/stores");
    const first = await post("shops.create", { requestKey: "shop-dialog-0001", ...body(formWith("R-KEY-1")) });
    const again = await post("shops.create", { requestKey: "shop-dialog-0001", ...body(formWith("R-KEY-1")) });
    expect(again.shop).toEqual(first.shop);
    expect(await calls("POST /v1/stores")).toBe(sent + 1);
    expect((await intents()).find((r) => r.request_key === "shop-dialog-0001")).toMatchObject({ status: "done", result_id: first.shop.id, operation: "shop.create" });
    expect(await failure(post("shops.create", { requestKey: "bad key!", ...body(formWith("R-KEY-X")) }))).toMatchObject({ status: 422, fieldErrors: [{ field: "requestKey" }] });
  });

  it("a register write lost after the platform accepted: the intent keeps the platform's id, and the retry finishes it without a second call", async () => {
    const sent = await calls("POST /v1/stores");
    // The register refuses writes (a full disk, a lost connection) while reads still work.
    await sql`CREATE TRIGGER register_down BEFORE INSERT ON shop_register BEGIN SELECT RAISE(ABORT, 'register unavailable'); END`.execute(store.db);
    let lost: ApiError;
    try {
      lost = await failure(post("shops.create", { requestKey: "shop-dialog-0002", ...body(formWith("R-KEY-2")) }));
    } finally {
      await sql`DROP TRIGGER register_down`.execute(store.db);
    }
    expect(lost.status).toBe(503);
    expect(await calls("POST /v1/stores")).toBe(sent + 1);
    const intent = (await intents()).find((r) => r.request_key === "shop-dialog-0002")!;
    expect(intent).toMatchObject({ status: "sent", result_id: expect.stringMatching(/^\d+$/) });
    const retried = await post("shops.create", { requestKey: "shop-dialog-0002", ...body(formWith("R-KEY-2")) });
    expect(retried.shop).toMatchObject({ id: intent.result_id, sid: "R-KEY-2", source: "created" });
    expect(await calls("POST /v1/stores")).toBe(sent + 1);
    expect((await intents()).find((r) => r.request_key === "shop-dialog-0002")?.status).toBe("done");
  });

  it("a refusal of the platform drops the intent, so the same dialog may send again", async () => {
    await platformShop("R-KEY-TAKEN");
    expect((await failure(post("shops.create", { requestKey: "shop-dialog-0003", ...body(formWith("R-KEY-TAKEN")) }))).status).toBe(422);
    expect((await intents()).find((r) => r.request_key === "shop-dialog-0003")).toBeUndefined();
  });

  it("the same request key twice is one group", async () => {
    const { shop } = await post("shops.create", body(formWith("R-KEY-G")));
    const before = await posts("storesGroups");
    const group = { requestKey: "group-dialog-0001", name: "幂等组", remark: "两次提交", shopIds: [shop.id] };
    const first = await post("shopGroups.create", group);
    const again = await post("shopGroups.create", group);
    expect(again).toEqual(first);
    expect(await posts("storesGroups")).toBe(before + 1);
    expect((await app("shopGroups.list", {})).groups.filter((g) => g.name === "幂等组")).toHaveLength(1);
  });

  it("NUL in a group's name or inside shopInfoAll is a 400 naming the field: nothing is sent or recorded", async () => {
    const [stores, groups, recorded] = [await calls("POST /v1/stores"), await posts("storesGroups"), (await intents()).length];
    const nulGroup = await failure(post("shopGroups.create", { requestKey: "group-dialog-0002", name: "组\u0000", remark: "x", shopIds: ["1"] }));
    expect(nulGroup).toMatchObject({ status: 400, code: "invalid_text", fieldErrors: [{ field: "name" }] });
    const nulShop = await failure(post("shops.create", { requestKey: "shop-dialog-0004", ...body(formWith("R-NUL", { branchName: "店\u0000" })) }));
    expect(nulShop).toMatchObject({ status: 400, code: "invalid_text", fieldErrors: [{ field: "shopInfoAll.business.base_info.branch_name" }] });
    // shopInfoAll sent as the JSON text §4.8 defines: the NUL is an escape inside it, found all the same
    const asText = JSON.stringify(body(formWith("R-NUL", { branchName: "店\u0000" })).shopInfoAll);
    const nulText = await failure(post("shops.create", { requestKey: "shop-dialog-0005", shopInfoAll: asText }));
    expect(nulText).toMatchObject({ status: 400, code: "invalid_text", fieldErrors: [{ field: "shopInfoAll.business.base_info.branch_name" }] });
    expect([await calls("POST /v1/stores"), await posts("storesGroups"), (await intents()).length]).toEqual([stores, groups, recorded]);
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
