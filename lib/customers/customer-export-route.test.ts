import { describe, expect, it } from "vitest";
import { ReauthRequiredError } from "@/lib/http/api-error";
import { parseCsv } from "@/lib/events/csv";
import { json } from "@/lib/platform/testing/fake-upstream";
import { APP, fakePlatformForRoutes, Reauth } from "@/lib/proxy/testing/proxy-deps";
import { handleCustomerExport } from "./customer-export-route";
import { readUntilFailure } from "./testing";
import type { ExportSearch, IndexRequest } from "./export-ids";

const TOKEN = "at_exporttesttokenexporttesttoken";
const BASE = 2n ** 53n + 1n;
const IDS = Array.from({ length: 2300 }, (_, i) => BASE + BigInt(i));

const platform = fakePlatformForRoutes(TOKEN, { retry: { maxAttempts: 1 }, timeoutMs: 2_000 });
const platformDeps = platform.makeDeps;
/** The people index's ids of a search (what `search.ids` yields), and the requests it was asked. */
const searched: { request: IndexRequest; key: unknown }[] = [];
let indexBatches: string[][] = [];
const fakeSearch: ExportSearch = {
  async *ids(key, request) {
    searched.push({ key, request });
    for (const batch of indexBatches) yield batch;
  },
};
const makeDeps = (...args: Parameters<typeof platformDeps>) => {
  const made = platformDeps(...args);
  return { ...made, deps: { ...made.deps, search: () => fakeSearch } };
};

const consoleHeaders = { "x-engage-request": "1", "sec-fetch-site": "same-origin", "x-open-app-id": "alpha-app" };
const exportRequest = (query = "", headers: Record<string, string> = consoleHeaders) => new Request(`${APP}/api/export/customers${query ? `?${query}` : ""}`, { headers });

/** §4.1 answered from IDS: idFrom/idTo, sord, rows (page 1); ids as JSON integers above 2^53. */
function servePages(options: { failAfter?: number } = {}) {
  platform.up.handle((req, res, n) => {
    if (options.failAfter !== undefined && n > options.failAfter) return json(res, 500, '{"error":{"code":"500","message":"boom"}}');
    const q = req.url.searchParams;
    const listed = q.get("idList") ? new Set(q.get("idList")!.split(",")) : undefined;
    let ids = IDS.filter((id) => (!listed || listed.has(String(id))) && (!q.get("idFrom") || id >= BigInt(q.get("idFrom")!)) && (!q.get("idTo") || id <= BigInt(q.get("idTo")!)));
    if (q.get("sord") === "desc") ids = ids.reverse();
    const rows = ids.slice(0, Number(q.get("rows"))).map((id) => `{"id":${id},"displayName":"客户 ${id}","mobile":"+86 1380000","dateCreated":"2026-01-02T03:04:05Z"}`);
    json(res, 200, `{"rows":[${rows.join(",")}]}`);
  });
}

describe("GET /api/export/customers", () => {
  it("streams the filtered customers as CSV, walking the platform by keyset with the session's token", async () => {
    servePages();
    const { deps, lines } = makeDeps();
    const res = await handleCustomerExport(exportRequest(`stage=lead&cols=id,displayName,mobile,dateCreated&idFrom=${IDS[10]}`), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(new TextDecoder().decode(bytes));
    expect(records[0]).toEqual(["id", "displayName", "mobile", "dateCreated (UTC)"]);
    expect(records.slice(1).map((r) => r[0])).toEqual(IDS.slice(10).map(String));
    expect(records[1]).toEqual([String(IDS[10]), `客户 ${IDS[10]}`, "'+86 1380000", "2026-01-02T03:04:05Z"]);
    // 1000 + 1000 + 290 + an empty page, one after the other, all with the filter and the token.
    expect(platform.up.requests.map((r) => r.url.searchParams.get("idFrom"))).toEqual([String(IDS[10]), String(IDS[1009]! + 1n), String(IDS[2009]! + 1n), String(IDS[2299]! + 1n)]);
    for (const r of platform.up.requests) {
      expect(r.url.pathname).toBe("/v1/customers");
      expect(Object.fromEntries(r.url.searchParams)).toMatchObject({ stage: "lead", sidx: "id", sord: "asc", page: "1", rows: "1000", select: "id,displayName,mobile,dateCreated", access_token: TOKEN });
    }
    expect(lines.at(-1)).toMatchObject({ msg: "customer export", rows: 2290 });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it("needs the console's request header (an export cannot be started cross-site)", async () => {
    const { deps } = makeDeps();
    for (const headers of [{}, { "sec-fetch-site": "cross-site", "x-engage-request": "1" }] as Array<Record<string, string>>) {
      const res = await handleCustomerExport(exportRequest("", headers), deps);
      expect(res.status).toBe(403);
    }
  });

  it("passes the session's 401 through, like the proxy", async () => {
    const { deps } = makeDeps({ requireSession: async () => ({ ok: false, error: new ReauthRequiredError({ message: "sign in", redirect: "/api/auth/start" }) }) });
    const res = await handleCustomerExport(exportRequest(), deps);
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 401 reauth_required before any byte when the installation must authorize again", async () => {
    const { deps } = makeDeps({
      getAccessToken: async () => {
        throw new Reauth();
      },
    });
    const res = await handleCustomerExport(exportRequest(), deps);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({ code: "reauth_required", redirect: "/api/auth/start?openAppId=alpha-app" });
  });

  it("refreshes a rejected token once, like the proxy", async () => {
    platform.up.handle((req, res) =>
      req.url.searchParams.get("access_token") === `${TOKEN}_new` ? json(res, 200, '{"rows":[]}') : json(res, 401, '{"error_code":"expired_token","error_description":"expired"}'),
    );
    const { deps } = makeDeps();
    const res = await handleCustomerExport(exportRequest(), deps);
    expect(res.status).toBe(200);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer())).toBe("\uFEFFid,displayName,mobile,email,stage,source,dateCreated (UTC),lastUpdated (UTC)\r\n");
  });

  it("maps a platform error on the first page to the proxy's error answer (no file)", async () => {
    platform.up.handle((_req, res) => json(res, 200, '{"error":{"code":"400001","message":"bad filter","fieldErrors":[{"fieldName":"stage","message":"no"}]}}'));
    const { deps } = makeDeps();
    const res = await handleCustomerExport(exportRequest(), deps);
    expect(res.status).toBe(422);
    expect((await res.json()).error).toMatchObject({ code: "400001", fieldErrors: [{ field: "stage" }] });
  });

  it("errors the download when the platform fails midway, after the rows already sent, and logs it", async () => {
    servePages({ failAfter: 1 });
    const { deps, lines } = makeDeps();
    const res = await handleCustomerExport(exportRequest(), deps);
    expect(res.status).toBe(200);
    const { text, error } = await readUntilFailure(res.body!);
    expect(error).toBeDefined();
    expect(parseCsv(text)).toHaveLength(1001);
    expect(lines.at(-1)).toMatchObject({ msg: "customer export failed midway", rows: 1000 });
  });

  it("never answers 500 for a malformed list URL: bad values fall back as on the page", async () => {
    servePages();
    const { deps } = makeDeps();
    const res = await handleCustomerExport(exportRequest("page=abc&rows=-1&sidx=password&sord=x&idFrom=1e9&idTo=%ff&cols=secret&gender=9&createdFrom=yesterday"), deps);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const q = Object.fromEntries(platform.up.requests[0]!.url.searchParams);
    expect(q).not.toHaveProperty("idFrom");
    expect(q).not.toHaveProperty("gender");
    expect(q).not.toHaveProperty("dateCreatedFrom");
  });

  it("exports what a search or tag shows: the index's ids, each batch read live with the list's filters", async () => {
    servePages();
    searched.length = 0;
    indexBatches = [[String(IDS[5]), String(IDS[3])], [String(IDS[100]), String(IDS[7])]];
    const { deps, lines } = makeDeps();
    const res = await handleCustomerExport(exportRequest(`q=li&tag=vip&stage=lead&hasMobile=true&cols=id,displayName&idList=${IDS[5]},${IDS[3]},${IDS[100]}`), deps);
    expect(res.status).toBe(200);
    const records = parseCsv(new TextDecoder().decode(await res.arrayBuffer()));
    expect(records[0]).toEqual(["id", "displayName"]);
    // The staff's own id list narrows the index's ids (IDS[7] is not in it), as on the page.
    expect(records.slice(1).map((r) => r[0])).toEqual([IDS[3], IDS[5], IDS[100]].map(String));
    expect(searched).toEqual([{ key: { openAppId: "alpha-app", tenantId: expect.any(String) }, request: { q: "li", tag: "vip", stage: "lead", hasMobile: true } }]);
    expect(platform.up.requests.map((r) => r.url.searchParams.get("idList"))).toEqual([`${IDS[5]},${IDS[3]}`, String(IDS[100])]);
    for (const r of platform.up.requests) expect(Object.fromEntries(r.url.searchParams)).toMatchObject({ stage: "lead", select: "id,displayName", page: "1", sidx: "id" });
    expect(lines.at(-1)).toMatchObject({ msg: "customer export", rows: 3 });
  });

  it("a search that finds nobody exports the header alone, with no platform call", async () => {
    servePages();
    indexBatches = [];
    const { deps } = makeDeps();
    const res = await handleCustomerExport(exportRequest("tag=nobody&cols=id"), deps);
    expect(res.status).toBe(200);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer())).toBe("\uFEFFid\r\n");
    expect(platform.up.requests).toHaveLength(0);
  });
});
