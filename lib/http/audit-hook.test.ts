import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./api-error";
import { setAuditSink, type AuditDraft } from "./audit-hook";
import type { AppOperation } from "./define-operations";
import { apiRoute, type RouteDeps } from "./route";

const session = { openAppId: "alpha-app", tenantId: "1", userId: "u7", userName: "Ada" };
const deps: RouteDeps = {
  log: { info: () => {}, warn: () => {}, error: () => {} },
  requireSession: async () => ({ ok: true as const, session }),
};
const op = (over: Partial<AppOperation> = {}) =>
  ({ name: "refunds.create", method: "POST", path: "/api/thing", resource: "deals", access: "session", csrf: "writes", answer: "json", audit: "writes", invalidates: [], summary: "s", body: z.object({ orderNo: z.string() }), ...over }) as AppOperation<"refunds.create">;
const post = (body: unknown) =>
  new Request("http://app.test/api/thing", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", "x-engage-request": "1", origin: "http://app.test", "x-request-id": "req-12345678" } });

function capture(): AuditDraft[] {
  const drafts: AuditDraft[] = [];
  setAuditSink((d) => void drafts.push(d));
  return drafts;
}
afterEach(() => setAuditSink(undefined));

describe("the route wrapper records every write in the audit log", () => {
  it("a done write: who, the operation, its input, the outcome and the request id", async () => {
    const drafts = capture();
    const route = apiRoute({ name: "t", op: "logged-as", operation: op() }, async () => new Response("{}", { status: 201 }));
    expect((await route(post({ orderNo: "D-1" }), deps)).status).toBe(201);
    expect(drafts).toMatchObject([{ key: { openAppId: "alpha-app", tenantId: "1" }, actor: { id: "u7", name: "Ada" }, operation: "refunds.create", method: "POST", resource: "deals", status: 201, outcome: "done", requestId: "req-12345678", input: { body: { orderNo: "D-1" } } }]);
  });

  it("a refusal with its reason (the wrapper's 422 included); a failure as failed", async () => {
    const drafts = capture();
    await apiRoute({ name: "t", operation: op() }, async () => new Response("{}"))(post({ orderNo: 5 }), deps);
    await apiRoute({ name: "t", operation: op() }, async () => Promise.reject(new ApiError({ status: 409, code: "taken", message: "already refunded" })))(post({ orderNo: "D-1" }), deps);
    await apiRoute({ name: "t", operation: op() }, async () => Promise.reject(new Error("boom")))(post({ orderNo: "D-1" }), deps);
    expect(drafts.map((d) => [d.outcome, d.status, d.reason])).toEqual([
      ["refused", 422, "invalid_input: the request is not valid"],
      ["refused", 409, "taken: already refunded"],
      ["failed", 500, "internal_error: the request could not be completed"],
    ]);
  });

  it("not a read, nor a route marked `never`, nor a handler's skip; a handler's targets and changes are kept", async () => {
    const drafts = capture();
    const get = new Request("http://app.test/api/thing", { headers: { "x-engage-request": "1" } });
    await apiRoute({ name: "t", operation: op({ method: "GET", body: undefined }) }, async () => new Response("{}"))(get, deps);
    await apiRoute({ name: "t", operation: op({ audit: "never" }) }, async () => new Response("{}"))(post({ orderNo: "D-1" }), deps);
    await apiRoute({ name: "t", operation: op() }, async (ctx) => ((ctx.audit = { skip: true }), new Response("{}")))(post({ orderNo: "D-1" }), deps);
    expect(drafts).toEqual([]);
    await apiRoute({ name: "t", operation: op() }, async (ctx) => ((ctx.audit = { changes: { a: { before: 1, after: 2 } } }), new Response("{}")))(post({ orderNo: "D-1" }), deps);
    expect(drafts[0]!.changes).toEqual({ a: { before: 1, after: 2 } });
  });

  it("a request refused before its session is known belongs to no tenant and is not recorded", async () => {
    const drafts = capture();
    const crossSite = new Request("http://app.test/api/thing", { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-engage-request": "1", origin: "http://evil.test" } });
    expect((await apiRoute({ name: "t", operation: op() }, async () => new Response("{}"))(crossSite, deps)).status).toBe(403);
    expect(drafts).toEqual([]);
  });
});
