import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { currentUserOf } from "@/lib/auth/flow-handlers";
import { callPlatform, type CallOptions } from "./client";
import { isRefusal, readPlatformResponse } from "./errors";
import { operations } from "./operations";
import { startFakeUpstream, type FakeUpstream } from "./testing/fake-upstream";
import { RECORDED, type RecordedAnswer } from "./testing/recorded-answers";
import { rejection } from "./testing/rejection";

/**
 * The client against what the real platform answers (docs/decisions/real-platform-answers.md), bodies byte for byte as
 * recorded (`testing/recorded-answers.ts`), served by a plain HTTP server: no sandbox involved.
 */

let up: FakeUpstream;
beforeAll(async () => {
  up = await startFakeUpstream();
});
afterAll(() => up.close());

function send(res: ServerResponse, answer: RecordedAnswer) {
  res.writeHead(answer.status, answer.contentType ? { "content-type": answer.contentType } : {}).end(answer.body);
}
const serve = (answer: RecordedAnswer) => up.handle((_req, res) => send(res, answer));
const opts = (extra: Partial<CallOptions> = {}): CallOptions => ({ apiUrl: up.url, authUrl: up.url, accessToken: "at_test", retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...extra });


describe("fact 1: a missing or deleted resource is HTTP 500 with error_code 40201", () => {
  it("is not_found, not an upstream failure, and is not retried", async () => {
    serve(RECORDED.missingById);
    const error = await rejection(callPlatform(operations["customers.get"], { params: { id: "5" } }, opts()));
    expect(error).toMatchObject({ kind: "not_found", code: "40201", httpStatus: 500 });
    expect(up.requests).toHaveLength(1);
  });

  it("on DELETE too", async () => {
    serve(RECORDED.missingById);
    expect(await rejection(callPlatform(operations["customers.delete"], { params: { id: "5" } }, opts()))).toMatchObject({ kind: "not_found" });
  });
});

describe("fact 2: a bad token is HTTP 200 with an auth-layer {error_code, error_description}", () => {
  it("refreshes once and repeats the call with the new token", async () => {
    up.handle((req, res) => (req.url.searchParams.get("access_token") === "at_new" ? send(res, RECORDED.customerList) : send(res, RECORDED.badToken)));
    const getToken = vi.fn(async ({ forceRefresh }: { forceRefresh: boolean }) => (forceRefresh ? "at_new" : "at_old"));
    const page = await callPlatform(operations["customers.list"], {}, opts({ accessToken: undefined, getToken }));
    expect(page.rows).toHaveLength(1);
    expect(getToken.mock.calls).toEqual([[{ forceRefresh: false }], [{ forceRefresh: true, rejectedToken: "at_old" }]]);
  });

  it("refreshes a second time when the replacement was superseded too, then gives up as auth (re-authorization)", async () => {
    up.handle((req, res) => (req.url.searchParams.get("access_token") === "at_3" ? send(res, RECORDED.customerList) : send(res, RECORDED.badToken)));
    let n = 0;
    const getToken = vi.fn(async () => `at_${++n}`);
    await expect(callPlatform(operations["customers.list"], {}, opts({ accessToken: undefined, getToken }))).resolves.toMatchObject({ rows: [{ id: "9007199254740995" }] });

    up.handle((_req, res) => send(res, RECORDED.badToken));
    const dead = vi.fn(async () => "at_dead");
    const error = await rejection(callPlatform(operations["lists.create"], { body: { name: "x" } }, opts({ accessToken: undefined, getToken: dead })));
    expect(error).toMatchObject({ kind: "auth", code: "40001", httpStatus: 200 });
    expect(dead).toHaveBeenCalledTimes(3);
    expect(up.requests).toHaveLength(3);
  });

  it("without a token (a grant) the same shape is a refusal, not a token problem", () => {
    const read = readPlatformResponse(200, new Headers({ "content-type": RECORDED.grantRefused.contentType }), RECORDED.grantRefused.body);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toMatchObject({ kind: "rejected", code: "40004", message: "the params is illegal" });
  });
});

describe("fact 3: token answers", () => {
  it("error_code 0 beside access_token is success", async () => {
    serve(RECORDED.tokenGranted);
    const grant = await callPlatform(operations["auth.refresh"], { body: { grant_type: "refresh_token", refresh_token: "rt_x" } }, opts({ clientCredentials: { clientId: "c", clientSecret: "s" } }));
    expect(grant).toMatchObject({ access_token: "at_recordedrecordedrecorded", expires_in: 7200, refresh_token: "rt_recordedrecordedrecorded" });
  });

  it("a string code with HTTP 200 is a refused grant (isRefusal: the installation must authorize again)", async () => {
    serve(RECORDED.grantRefused);
    const error = await rejection(callPlatform(operations["auth.refresh"], { body: { grant_type: "refresh_token", refresh_token: "rt_x" } }, opts({ clientCredentials: { clientId: "c", clientSecret: "s" } })));
    expect(isRefusal(error)).toBe(true);
    expect(error.message).toBe("the params is illegal");
  });
});

describe("fact 4: users/current in the tid shape, token as ?access_token=", () => {
  it("reads tid as the tenant id and tname as the tenant's name; sends the token as a query parameter", async () => {
    serve(RECORDED.currentUser);
    const user = await callPlatform(operations["users.current"], {}, opts({ accessToken: "at_user" }));
    expect(user.tenantId).toBe("80000000002");
    // no id in this shape: the staff key is derived from the login name
    expect(currentUserOf(user)).toEqual({ tenantId: "80000000002", userId: expect.stringMatching(/^k-[\w-]{27}$/), userName: "Bob Admin 李博", tenantName: "Beta Foods 贝塔食品" });
    expect(up.requests[0]!.url.searchParams.get("access_token")).toBe("at_user");
  });
});

describe("fact 5: 201 on create, 204 as text/html with an empty body", () => {
  it("takes 201 as success with ids exact", async () => {
    serve(RECORDED.created);
    const event = await callPlatform(operations["events.create"], { body: { customerId: "9007199254740995", event: "c_visit" } }, opts());
    expect(event).toMatchObject({ id: "9007199254740993", customerId: "9007199254740995" });
  });

  it("takes an empty text/html 204 as success", async () => {
    serve(RECORDED.noContent);
    await expect(callPlatform(operations["customers.delete"], { params: { id: "5" } }, opts())).resolves.toBeNull();
  });
});

describe("fact 6: {records, rows, total}, explicit nulls, unknown fields kept", () => {
  it("keeps every unknown field and their ids exact", async () => {
    serve(RECORDED.customerList);
    const page = await callPlatform(operations["customers.list"], {}, opts());
    const row = page.rows[0] as Record<string, unknown>;
    expect(row).toMatchObject({ id: "9007199254740995", qq: null, acceptEmail: false, externalId: "crm-77", membershipLevel: "gold", tags: null, ownerId: "9007199254740997" });
    expect(page).toMatchObject({ records: 1, total: 1 });
  });
});

describe("fact 7: both field-error shapes land on fields", () => {
  it("C0002 with the field list as JSON text in message", async () => {
    serve(RECORDED.c0002);
    const error = await rejection(
      callPlatform(operations["customers.createWithIdentities"], { body: { customer: { name: "x" }, customerIdentities: [{ identityType: "email", identityValue: "x" }] } }, opts()),
    );
    expect(error).toMatchObject({ kind: "validation", code: "C0002", fieldErrors: [{ field: "email", message: "email format is invalid" }], message: "email: email format is invalid" });
  });

  it("400001 with {fieldName, message} items on the plain create", async () => {
    serve(RECORDED.plainCreate400001);
    const error = await rejection(callPlatform(operations["customers.upsert"], { body: { name: "x", mobile: "1" } }, opts()));
    expect(error).toMatchObject({ kind: "validation", code: "400001", fieldErrors: [{ field: "mobile", message: "mobile format is invalid" }] });
  });
});

describe("fact 8: a §7.3 text sent as a JSON string literal", () => {
  it("keeps its text", async () => {
    serve(RECORDED.jsonStringText);
    const error = await rejection(callPlatform(operations["customers.createWithIdentities"], { body: { customer: { name: "x" }, customerIdentities: [] } }, opts()));
    expect(error).toMatchObject({ kind: "validation", httpStatus: 400, message: "No customer field found" });
  });
});

describe("fact 10: money with six decimals, idStr/customerIdStr", () => {
  it("reads 59.000000 as 59 and keeps the string twins", async () => {
    serve(RECORDED.order);
    const order = (await callPlatform(operations["deals.getByOrderNo"], { query: { orderNo: "SO-1" } }, opts())) as Record<string, unknown>;
    expect(order).toMatchObject({ amountTotal: 59, amountPaid: 59, customerId: "9007199254740995", customerIdStr: "9007199254740995" });
  });
});
