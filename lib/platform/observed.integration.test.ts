import { afterAll, describe, expect, it } from "vitest";
import { startTestSandbox } from "@/sandbox/testing/harness";
import { callPlatform, type CallOptions } from "./client";
import { operations } from "./operations";
import { rejection } from "./testing/rejection";

/**
 * The typed client against the sandbox's `observed` profile (beta answers as the real platform
 * does, docs/decisions/real-platform-answers.md): every difference that broke code written to the spec alone, end to end over HTTP.
 */
const sandbox = await startTestSandbox({ SANDBOX_BETA_PROFILE: "observed" });
afterAll(() => sandbox.close());
const beta = sandbox.urls.beta!;

async function newToken(): Promise<string> {
  const res = await fetch(`${beta}/__sandbox/tokens`, { method: "POST", body: JSON.stringify({ environment: "beta" }) });
  return ((await res.json()) as { access_token: string }).access_token;
}
/** A token source like app-auth's: a forced refresh issues a new token (which supersedes the earlier one). */
function tokenSource() {
  let current: string | undefined;
  const calls: boolean[] = [];
  const getToken = async ({ forceRefresh }: { forceRefresh: boolean }) => {
    calls.push(forceRefresh);
    if (!current || forceRefresh) current = await newToken();
    return current;
  };
  return { getToken, calls };
}
const opts = (extra: Partial<CallOptions> = {}): CallOptions => ({ apiUrl: beta, getToken: tokenSource().getToken, ...extra });


describe("the client on the observed profile", () => {
  it("a deleted customer is not_found (HTTP 500 40201), not retried", async () => {
    const o = opts();
    const created = await callPlatform(operations["customers.upsert"], { body: { name: "Gone" } }, o);
    await expect(callPlatform(operations["customers.delete"], { params: { id: created.id } }, o)).resolves.toBeNull();
    const error = await rejection(callPlatform(operations["customers.get"], { params: { id: created.id } }, o));
    expect(error).toMatchObject({ kind: "not_found", code: "40201", httpStatus: 500 });
  });

  it("a superseded token (HTTP 200 + error_code) is refreshed and the call repeated", async () => {
    const source = tokenSource();
    const o = opts({ getToken: source.getToken });
    await callPlatform(operations["customers.list"], { query: { rows: 1 } }, o);
    await newToken(); // someone else's token ends ours
    const page = (await callPlatform(operations["customers.list"], { query: { rows: 1 } }, o)) as { records?: number; rows: unknown[] };
    expect(source.calls).toEqual([false, false, true]);
    expect(page).toHaveProperty("records");
  });

  it("users/current in the tid shape gives the tenant id", async () => {
    const user = await callPlatform(operations["users.current"], {}, { apiUrl: beta, accessToken: await newToken() });
    expect(user.tenantId).toBe("80000000002");
  });

  it("C0002 lands on the field; a §7.3 text sent as a JSON string keeps its text", async () => {
    const o = opts();
    const c0002 = await rejection(
      callPlatform(operations["customers.createWithIdentities"], { body: { customer: { mobile: "12-ab" }, customerIdentities: [{ identityType: "crm", identityValue: "c-1" }] } }, o),
    );
    expect(c0002).toMatchObject({ kind: "validation", code: "C0002", fieldErrors: [{ field: "mobile", message: "mobile must be digits, or +<country code> <number>" }] });
    const plain = await rejection(callPlatform(operations["customers.upsert"], { body: { mobile: "12-ab" } }, o));
    expect(plain).toMatchObject({ kind: "validation", code: "400001", fieldErrors: [{ field: "mobile" }] });
    const text = await fetch(`${beta}/v1/customerandidentities?access_token=${await newToken()}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await text.text()).toBe('"No customer field found"');
  });

  it("201 on event and order creation; money with six decimals reads as numbers; extra fields and idStr kept", async () => {
    const o = opts();
    const customer = (await callPlatform(operations["customers.upsert"], { body: { name: "Buyer" } }, o)) as Record<string, unknown>;
    expect(customer).toMatchObject({ idStr: customer.id, acceptEmail: false, externalId: null });
    const event = await callPlatform(operations["events.create"], { body: { customerId: String(customer.id), event: "open_page" } }, o);
    expect(event.customerId).toBe(customer.id);
    const orderNo = `OBS-${Date.now()}`;
    const dateOrder = new Date(Date.now() - 60_000).toISOString().slice(0, 19) + "Z";
    await callPlatform(operations["deals.create"], { body: { customerId: String(customer.id), orderNo, amountPaid: 59, dateOrder, lines: [{ lineId: "1", productName: "杯", qty: 1, priceUnit: 59 }] } }, o);
    const order = (await callPlatform(operations["deals.getByOrderNo"], { query: { orderNo } }, o)) as Record<string, unknown>;
    expect(order).toMatchObject({ orderNo, amountPaid: 59, customerIdStr: customer.id });
  });
});
