import { expect, it } from "vitest";
import { describeEachDialect, warnIfPostgresSkipped, type TestStore } from "@/lib/store/testing";
import { handleViewDelete, handleViewList, handleViewSave, type ViewsRouteDeps } from "./views-routes";
import { normalizeViewQuery } from "./view-lists";

/**
 * Saved views through their routes over a real store (both dialects): own and shared views, the
 * query kept as the list writes it, a name in use asks before replacing (a double click saves
 * one), only the sharer replaces or deletes a shared view, no other tenant or person sees them,
 * and bad input is a 422 that stores nothing.
 */

warnIfPostgresSkipped("saved views");

const APP = "http://app.test";
const staff = (userId: string, tenantId = "1") => ({ openAppId: "alpha-app", tenantId, userId, userName: `Staff ${userId}`, expiresAt: Date.now() + 3600_000 });
const depsOf = (t: TestStore, userId: string, tenantId = "1"): ViewsRouteDeps => ({
  requireSession: async () => ({ ok: true, session: staff(userId, tenantId) }),
  log: { info() {}, warn() {}, error() {} },
  store: async () => t.store,
  now: () => 1_700_000_000_000,
});
const list = (t: TestStore, userId: string, which = "customers", tenantId = "1") =>
  handleViewList(new Request(`${APP}/api/views?list=${which}`, { headers: { "x-engage-request": "1" } }), depsOf(t, userId, tenantId)).then(async (r) => ((await r.json()) as { views: Array<Record<string, unknown>> }).views);
const save = (t: TestStore, userId: string, body: Record<string, unknown>) =>
  handleViewSave(new Request(`${APP}/api/views`, { method: "POST", headers: { "x-engage-request": "1", origin: APP, "content-type": "application/json" }, body: JSON.stringify(body) }), depsOf(t, userId));
const del = (t: TestStore, userId: string, id: string) => handleViewDelete(new Request(`${APP}/api/views/${id}`, { method: "DELETE", headers: { "x-engage-request": "1", origin: APP } }), depsOf(t, userId));

describeEachDialect("saved views", (t) => {
  it("keeps the query as the list writes it: unknown keys, the page and malformed values dropped", async () => {
    const res = await save(t, "u1", { list: "customers", name: "  VIP   in Shanghai ", query: "stage=VIP&page=7&evil=%3Cscript%3E&sidx=name&sord=asc" });
    expect(res.status).toBe(201);
    const { view } = (await res.json()) as { view: { name: string; query: string } };
    expect(view.name).toBe("VIP in Shanghai");
    expect(view.query).toBe(normalizeViewQuery("customers", "stage=VIP&sidx=name&sord=asc"));
    expect(view.query).not.toContain("page");
    expect(view.query).not.toContain("evil");
  });

  it("own views for their owner only, shared ones for the whole tenant, none for another tenant", async () => {
    expect((await save(t, "u1", { list: "orders", name: "Mine", query: "sord=asc" })).status).toBe(201);
    expect((await save(t, "u1", { list: "orders", name: "Team", query: "", shared: true })).status).toBe(201);
    expect((await list(t, "u1", "orders")).map((v) => [v.name, v.shared, v.deletable])).toEqual([
      ["Mine", false, true],
      ["Team", true, true],
    ]);
    expect((await list(t, "u2", "orders")).map((v) => [v.name, v.deletable])).toEqual([["Team", false]]);
    expect(await list(t, "u1", "orders", "2")).toEqual([]);
    expect(await list(t, "u1", "customers")).toEqual([]);
  });

  it("a name in use is a 409 unless replace; two saves of one new name at once keep one view", async () => {
    const first = await Promise.all([save(t, "u1", { list: "events", name: "Clicks", query: "types=click" }), save(t, "u1", { list: "events", name: "Clicks", query: "types=click" })]);
    expect(first.map((r) => r.status).sort()).toEqual([201, 409]);
    const conflict = await save(t, "u1", { list: "events", name: "Clicks", query: "types=view" });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { code: string } }).error.code).toBe("view_exists");
    const replaced = await save(t, "u1", { list: "events", name: "Clicks", query: "types=view", replace: true });
    expect(replaced.status).toBe(200);
    const views = await list(t, "u1", "events");
    expect(views).toHaveLength(1);
    expect(views[0]!.query).toBe(normalizeViewQuery("events", "types=view"));
  });

  it("only the sharer replaces or deletes a shared view; another's own view is not found", async () => {
    await save(t, "u1", { list: "shops", name: "Open", query: "state=open", shared: true });
    await save(t, "u1", { list: "shops", name: "Private", query: "q=abc" });
    const [shared, own] = (await list(t, "u1", "shops")).sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect((await save(t, "u2", { list: "shops", name: "Open", query: "", shared: true, replace: true })).status).toBe(403);
    expect((await del(t, "u2", String(shared!.id))).status).toBe(403);
    expect((await del(t, "u2", String(own!.id))).status).toBe(404);
    expect((await del(t, "u1", String(shared!.id))).status).toBe(200);
    expect((await list(t, "u2", "shops")).map((v) => v.name)).toEqual([]);
  });

  it("bad input is a 422 naming the field and stores nothing", async () => {
    for (const body of [
      { list: "segments", name: "x", query: "" },
      { list: "customers", name: "   ", query: "" },
      { list: "customers", name: "x".repeat(61), query: "" },
      { list: "customers", name: "x", query: "a=".padEnd(2001, "b") },
      { list: "customers", name: "x", query: "", extra: 1 },
    ]) {
      const res = await save(t, "u1", body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    expect(await list(t, "u1")).toEqual([]);
    expect((await handleViewList(new Request(`${APP}/api/views?list=nope`, { headers: { "x-engage-request": "1" } }), depsOf(t, "u1"))).status).toBe(422);
  });
});
