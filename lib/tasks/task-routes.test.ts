import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inProcessQueue } from "@/lib/jobs/in-process";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { createTaskService, type TaskService } from "./service";
import { handleTaskCancel, handleTaskFile, handleTaskGet, handleTaskList, type TaskRouteDeps } from "./task-routes";
import type { TaskDefinition } from "./task-types";

/**
 * The task routes at the edge: a task of another tenant is "not found" for every route (never
 * told apart from a missing id), a malformed id or kind is a 422 naming the field, a cancel needs
 * the app's header from the app's origin, and the file comes with its name and type.
 */

const APP = "http://app.test";
const export3: TaskDefinition<unknown, { rows: number }, unknown> = {
  kind: "test.export",
  exclusive: "tenant",
  async run(ctx) {
    await ctx.file.begin("customers 2026.csv", "text/csv; charset=utf-8");
    ctx.file.append("id\n1\n2\n3\n");
    return { rows: 3 };
  },
};

let t: TestStore;
let service: TaskService;
const queue = inProcessQueue();
beforeEach(async () => {
  t = await openSqliteTestStore();
  service = createTaskService({ store: async () => t.store, queue: async () => queue, definitions: () => new Map([[export3.kind, export3]]) });
});
afterEach(async () => {
  await queue.idle();
  await t.cleanup();
});

const session = (tenantId: string) => ({ openAppId: "alpha-app", tenantId, userId: `u-${tenantId}`, userName: `Staff ${tenantId}`, expiresAt: Date.now() + 3600_000 });
const depsOf = (tenantId: string): TaskRouteDeps => ({
  requireSession: async () => ({ ok: true, session: session(tenantId) }),
  log: { info() {}, warn() {}, error() {} },
  tasks: () => service,
});
const get = (path: string) => new Request(`${APP}${path}`, { headers: { "x-engage-request": "1" } });
const post = (path: string, headers: Record<string, string> = { "x-engage-request": "1", origin: APP }) => new Request(`${APP}${path}`, { method: "POST", headers });

describe("task routes", () => {
  it("list, get and download the session tenant's task; another tenant gets 404 for each", async () => {
    const { task } = await service.start({ openAppId: "alpha-app", tenantId: "1" }, "test.export", {}, { userId: "u-1", name: "Staff 1" });
    await queue.idle();
    const list = await handleTaskList(get("/api/tasks?kind=test.export"), depsOf("1"));
    expect(list.status).toBe(200);
    const body = (await list.json()) as { tasks: Array<Record<string, unknown>> };
    expect(body.tasks).toHaveLength(1);
    expect(body.tasks[0]).toMatchObject({ id: task.id, state: "done", startedBy: { name: "Staff 1" } });
    expect(body.tasks[0]).not.toHaveProperty("tenantId");

    const file = await handleTaskFile(get(`/api/tasks/${task.id}/file`), depsOf("1"));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="customers_2026.csv"');
    expect(await file.text()).toBe("id\n1\n2\n3\n");

    expect(((await (await handleTaskList(get("/api/tasks"), depsOf("2"))).json()) as { tasks: unknown[] }).tasks).toEqual([]);
    for (const res of [
      await handleTaskGet(get(`/api/tasks/${task.id}`), depsOf("2")),
      await handleTaskFile(get(`/api/tasks/${task.id}/file`), depsOf("2")),
      await handleTaskCancel(post(`/api/tasks/${task.id}/cancel`), depsOf("2")),
    ]) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });

  it("a malformed id is not found, a malformed kind a 422 naming it; a cancel without the app's header or from another origin is 403", async () => {
    const bad = await handleTaskGet(get("/api/tasks/not-a-uuid"), depsOf("1"));
    expect(bad.status).toBe(404);
    const badKind = await handleTaskList(get("/api/tasks?kind=DROP%20TABLE"), depsOf("1"));
    expect(badKind.status).toBe(422);
    expect(((await badKind.json()) as { error: { fieldErrors: Array<{ field: string }> } }).error.fieldErrors[0]!.field).toContain("kind");
    const id = "00000000-0000-4000-8000-000000000000";
    expect((await handleTaskCancel(post(`/api/tasks/${id}/cancel`, {}), depsOf("1"))).status).toBe(403);
    expect((await handleTaskCancel(post(`/api/tasks/${id}/cancel`, { "x-engage-request": "1", origin: "http://evil.test" }), depsOf("1"))).status).toBe(403);
    expect((await handleTaskCancel(post(`/api/tasks/${id}/cancel`), depsOf("1"))).status).toBe(404);
  });
});
