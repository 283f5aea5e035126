/**
 * First-load JavaScript (gzip) of each console route, from the production build (target:
 * <= 180 kB). Next 16 no longer prints it; the build writes the chunk lists to
 * .next/diagnostics/route-bundle-stats.json, and each chunk is gzipped here (level 9, as served).
 * Run `npm run build` first.
 */
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const TARGET_KB = 180;
const STATS = ".next/diagnostics/route-bundle-stats.json";

if (!existsSync(STATS)) {
  console.error(`${STATS} not found: run npm run build first`);
  process.exit(1);
}
const routes = JSON.parse(readFileSync(STATS, "utf8")) as { route: string; firstLoadChunkPaths: string[] }[];
// Every page of app/(console)/, the home page included; not /health or /_not-found.
const CONSOLE = /^\/((customers|lists|tags|orders|events|settings|activity|shops|media)(\/|$)|$)/;
let worst = 0;
console.log("route                      first-load JS (gzip)");
for (const { route, firstLoadChunkPaths } of routes) {
  const bytes = firstLoadChunkPaths.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
  const kb = bytes / 1024;
  if (CONSOLE.test(route)) worst = Math.max(worst, kb);
  console.log(`${route.padEnd(26)} ${kb.toFixed(1).padStart(7)} kB${CONSOLE.test(route) ? (kb <= TARGET_KB ? "  ok" : "  OVER") : ""}`);
}
console.log(`largest console route: ${worst.toFixed(1)} kB (target <= ${TARGET_KB} kB)`);
