import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { appOpenApiDocument } from "./app-openapi";
import { appOperationList } from "./app-operations";
import { appRoutes } from "@/lib/http/app-routes";
import { handleOpenApiRequest } from "./openapi-route";

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; security: unknown[]; parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>> };

const doc = appOpenApiDocument("https://console.engage.test") as Doc;
const dir = mkdtempSync(join(tmpdir(), "app-openapi-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the app's OpenAPI document, from its route table", () => {
  it("describes every route of the table, by method and path", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const op of appOperationList) expect(doc.paths[op.path.replace("{path+}", "{path}")]?.[op.method.toLowerCase()]?.operationId, op.name).toBe(op.name);
    const described = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(described).toBe(Object.keys(appRoutes).length);
  });

  it("says who may call each route: the session's routes need the cookie or the tab's token, the others nothing", () => {
    expect(doc.paths["/api/shops"]!.get!.security).toEqual([{ sessionCookie: [] }, { sessionToken: [] }]);
    expect(doc.paths["/api/webhooks/platform"]!.post!.security).toEqual([]);
    expect(doc.paths["/api/shops"]!.post!.parameters.map((p) => p.name)).toContain("X-Engage-Request");
    expect(doc.paths["/api/export/customers"]!.post!.parameters.map((p) => p.name)).toContain("X-Engage-Request");
    expect(doc.paths["/api/shops/{id}"]!.get!.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path" }));
    expect(doc.paths["/api/shops"]!.post!.responses).toHaveProperty("422");
  });

  it("describes a file upload by its content type, size limit and refusals (the event import's CSV)", () => {
    const upload = doc.paths["/api/events/import"]!.post! as unknown as { requestBody: { content: Record<string, unknown> }; responses: Record<string, unknown> };
    expect(Object.keys(upload.requestBody.content)).toEqual(["text/csv"]);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(["202", "200", "400", "413", "415", "422"]));
  });

  it("passes Redocly's recommended rules with no error and no warning (`redocly lint`, offline)", async () => {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const bin = join(process.cwd(), "node_modules", ".bin", "redocly");
    const report = join(dir, "report.json");
    const run = promisify(execFile);
    const result = await run(bin, ["lint", "--extends", "recommended", "--format", "json", file], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr ?? "" }));
    writeFileSync(report, result.stdout);
    const parsed = JSON.parse(readFileSync(report, "utf8")) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(parsed.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(parsed.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(readdirSync(dir)).toContain("report.json");
  }, 60_000);

  it("is served at GET /api/openapi.json for the app's public URL, whatever Host the request names", async () => {
    const res = await handleOpenApiRequest(new Request("http://evil.test/api/openapi.json"), { appUrl: "https://console.engage.test", log: { info() {}, warn() {}, error() {} } });
    expect(res.status).toBe(200);
    const served = (await res.json()) as { servers: Array<{ url: string }> };
    expect(served.servers).toEqual([{ url: "https://console.engage.test" }]);
    expect(served).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
