/**
 * Benchmark of deep browsing in the customers list (not a test; `npm run bench`). A sandbox seeded
 * with BENCH_DEEP_CUSTOMERS (default 1,000,000) customers in a temporary SQLite file; then the
 * console's data path is timed: the request the browser makes for a list state (`listInput` of
 * lib/customers/customer-list-state.ts turned into `/api/platform/v1/customers?…` by browser-fetch's
 * `operationUrl`), handled by the app's proxy (`handleProxyRequest`: routing, validation, token,
 * upstream call over loopback, lossless relay) and answered by the sandbox. Next's own routing and
 * the session / token lookups are not included (stand-ins, as in scripts/bench/proxy.ts).
 *
 * Measured, 20 rows per page, medians of BENCH_DEEP_RUNS (default 40) interleaved runs:
 *   page 1; page 5,000 reached as the console reaches it (the keyset cursor after the last id of
 *   page 4,999); page 5,000 by offset (`page=5000`) for contrast — unfiltered and with a filter
 *   (gender = female, about half the tenant). Target: keyset page 5,000 / page 1 <= 1.5.
 * Loopback only; stops by itself (seeding 1M takes ~80–100 s on this machine).
 */
import { spawnSync } from "node:child_process";
import { startFileSandbox } from "./support/file-sandbox";

const CUSTOMERS = Number(process.env.BENCH_DEEP_CUSTOMERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_DEEP_RUNS ?? 40);
const DEEP_PAGE = 5000;
const ROWS = 20;

// The proxy imports `server-only`, importable only under the `react-server` condition (as in the
// app's server bundle): run this file again with it.
if (!process.env.BENCH_DEEP_CHILD) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename], {
    stdio: "inherit",
    env: { ...process.env, BENCH_DEEP_CHILD: "1", LOG_LEVEL: "warn" },
  });
  process.exit(result.status ?? 1);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const { seedSandbox } = await import("../../sandbox/seed/seed");
  const { handleProxyRequest } = await import("../../lib/proxy/proxy");
  const { sandboxControl, sandboxToken } = await import("../../lib/platform/testing/sandbox-control");
  const { sandboxProxyDeps } = await import("../../lib/proxy/testing/sandbox-deps");
  const { PROXY_PREFIX } = await import("../../lib/api/browser-fetch");
  const { operationUrl, routes } = await import("../../lib/platform/routes");
  const { DEFAULT_STATE, EMPTY_FILTERS, listInput } = await import("../../lib/customers/customer-list-state");
  type State = typeof DEFAULT_STATE;

  const { sandbox, close } = await startFileSandbox("customers-deep-bench");
  try {
    const seedStart = performance.now();
    seedSandbox(sandbox.ctx, { customers: CUSTOMERS });
    console.log(`seeded ${CUSTOMERS.toLocaleString("en")} customers (+ a tenth in beta) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const base = sandbox.urls.alpha!;
    const control = sandboxControl(base);
    await control("/webhooks/config", { enabled: false });
    const token = await sandboxToken(control);
    const deps = sandboxProxyDeps(base, token, { openAppId: "oa-alpha-7f3c9e21", tenantId: "80000000001" });

    /** The console's request for a list state, through the proxy; returns ms and the ids shown. */
    const load = async (state: State): Promise<{ ms: number; ids: string[] }> => {
      const url = `http://app.bench${operationUrl(routes["customers.list"], listInput(state), PROXY_PREFIX)}`;
      const t = performance.now();
      const res = await handleProxyRequest(new Request(url), deps);
      const text = await res.text();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${text.slice(0, 200)}`);
      return { ms, ids: (JSON.parse(text) as { rows: Array<{ id: string }> }).rows.map((r) => r.id) };
    };

    /** The last id of page DEEP_PAGE − 1 (what the console holds when it clicks Next to page 5,000), found once by offset. */
    const cursorFor = async (query: string): Promise<string | undefined> => {
      const res = await fetch(`${base}/v1/customers?access_token=${token}&select=id&rows=1&page=${(DEEP_PAGE - 1) * ROWS}${query}`);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`cursor lookup -> ${res.status} ${text.slice(0, 200)}`);
      return /"id":\s*(\d+)/.exec(text)?.[1]; // none: the filter has fewer than DEEP_PAGE pages

    };

    const variants = [
      { name: "unfiltered", filters: EMPTY_FILTERS, query: "" },
      { name: "gender=2", filters: { ...EMPTY_FILTERS, gender: "2" as const }, query: "&gender=2" },
    ];
    const rows: string[][] = [];
    const ratios: number[] = [];
    for (const variant of variants) {
      const first: State = { ...DEFAULT_STATE, filters: variant.filters };
      const after = await cursorFor(variant.query);
      if (after === undefined) {
        rows.push([variant.name, "-", "-", "-", `fewer than ${DEEP_PAGE} pages`, ""]);
        continue;
      }
      const keyset: State = { ...first, page: DEEP_PAGE, cursor: { dir: "after", id: after } };
      const offset: State = { ...first, page: DEEP_PAGE };
      // Same rows either way (a check, not a timing).
      const [k, o] = [await load(keyset), await load(offset)];
      if (k.ids.join() !== o.ids.join() || k.ids.length !== ROWS) throw new Error(`${variant.name}: keyset page ${DEEP_PAGE} differs from the offset page`);
      for (let i = 0; i < 5; i++) for (const s of [first, keyset, offset]) await load(s); // warm-up
      const times = { first: [] as number[], keyset: [] as number[], offset: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, so drifting machine load hits all three alike.
        times.first.push((await load(first)).ms);
        times.keyset.push((await load(keyset)).ms);
        times.offset.push((await load(offset)).ms);
      }
      const [m1, mk, mo] = [median(times.first), median(times.keyset), median(times.offset)];
      ratios.push(mk / m1);
      rows.push([variant.name, m1.toFixed(2), mk.toFixed(2), mo.toFixed(2), (mk / m1).toFixed(2), (mo / m1).toFixed(2)]);
    }

    console.log(`\ncustomers deep paging through the app's proxy — ${CUSTOMERS.toLocaleString("en")} customers, ${ROWS} rows/page, medians of ${RUNS} runs (ms)`);
    const header = ["filter", "page 1", `page ${DEEP_PAGE} keyset`, `page ${DEEP_PAGE} offset`, "keyset/page1", "offset/page1"];
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
    const line = (r: string[]) => `| ${r.map((cell, c) => cell.padStart(widths[c]!)).join(" | ")} |`;
    console.log(line(header));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const r of rows) console.log(line(r));
    const worst = ratios.length ? Math.max(...ratios) : Number.NaN;
    console.log(`\ntarget: keyset page ${DEEP_PAGE} / page 1 <= 1.5 — worst ${worst.toFixed(2)} ${worst <= 1.5 ? "ok" : "MISSED"}`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
