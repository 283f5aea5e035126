/**
 * First-load JavaScript (gzip) of every console route, from the production build, split into what
 * the route pays for: the framework (what Next's own not-found page loads: React, the router), the
 * console shell (chunks every console page loads besides, i.e. the layout's providers and shell) and
 * the route's own code. Next 16 no longer prints sizes; the build writes the chunk lists to
 * .next/diagnostics/route-bundle-stats.json, and each chunk is gzipped here (level 9, as served).
 *
 * Target <= 170 kB per route, goal 160. `--check` (npm test, after its build) fails when a route is
 * over the ceiling below, so that a route cannot grow unnoticed. Run `npm run build` first.
 */
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { gzipSync } from "node:zlib";

const TARGET_KB = 170;
const GOAL_KB = 160;
/**
 * What `--check` enforces: a guard against growth, below the target. The largest route of the build it
 * was last set with, rounded up (168.2 kB, `/customers`, after nuqs and next/link left and the
 * shell's effects loaded after the page); lower it whenever a route is cut.
 */
export const CEILING_KB = 169;
const STATS = ".next/diagnostics/route-bundle-stats.json";

if (!existsSync(STATS)) {
  console.error(`${STATS} not found: run npm run build first`);
  process.exit(1);
}
const check = process.argv.includes("--check");
const routes = JSON.parse(readFileSync(STATS, "utf8")) as { route: string; firstLoadChunkPaths: string[] }[];
// Every page of app/(console)/, the home page and its not-found page included; not /health, /signed-out or /_not-found.
const CONSOLE = /^\/((customers|lists|tags|orders|events|settings|activity|shops|media|segments|duplicates|audit|disconnect)(\/|$)|$|\[\.\.\.missing\]$)/;

const gzipped = new Map<string, number>();
const kb = (files: Iterable<string>) => {
  let bytes = 0;
  for (const file of files) {
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
    bytes += gzipped.get(file)!;
  }
  return bytes / 1024;
};

const consoleRoutes = routes.filter((r) => CONSOLE.test(r.route)).sort((a, b) => kb(b.firstLoadChunkPaths) - kb(a.firstLoadChunkPaths));
const framework = new Set(routes.find((r) => r.route === "/_not-found")?.firstLoadChunkPaths ?? []);
const shell = new Set(consoleRoutes[0]?.firstLoadChunkPaths.filter((f) => !framework.has(f) && consoleRoutes.every((r) => r.firstLoadChunkPaths.includes(f))) ?? []);

console.log(`framework ${kb(framework).toFixed(1)} kB · console shell ${kb(shell).toFixed(1)} kB (loaded by all ${consoleRoutes.length} console routes)`);
console.log("route                        total    own   vs target");
let worst = 0;
for (const { route, firstLoadChunkPaths } of consoleRoutes) {
  const total = kb(firstLoadChunkPaths);
  const own = kb(firstLoadChunkPaths.filter((f) => !framework.has(f) && !shell.has(f)));
  worst = Math.max(worst, total);
  console.log(`${route.padEnd(26)} ${total.toFixed(1).padStart(7)} ${own.toFixed(1).padStart(6)}   ${(total / TARGET_KB).toFixed(3)}${total <= GOAL_KB ? "  goal met" : total <= TARGET_KB ? "  ok" : "  OVER"}`);
}
for (const { route, firstLoadChunkPaths } of routes.filter((r) => !CONSOLE.test(r.route))) console.log(`${route.padEnd(26)} ${kb(firstLoadChunkPaths).toFixed(1).padStart(7)}  (not a console page)`);
const over = consoleRoutes.filter((r) => kb(r.firstLoadChunkPaths) > TARGET_KB).length;
console.log(`largest console route: ${worst.toFixed(1)} kB = ${(worst / TARGET_KB).toFixed(3)} of the ${TARGET_KB} kB target (goal ${GOAL_KB}); ${over} of ${consoleRoutes.length} over the target`);
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} (sizes do not depend on it)`);
if (check && worst > CEILING_KB) {
  console.error(`FAIL: a console route loads ${worst.toFixed(1)} kB of JavaScript first, over the ${CEILING_KB} kB ceiling`);
  process.exit(1);
}
