/**
 * `npm run bench`: runs every benchmark in scripts/bench (except this file) one after the other,
 * each in its own process, and stops at the first failure. `npm run bench -- <name> …` runs only
 * those (`segments` is segments.ts).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run-all.ts" && !f.endsWith(".test.ts"))
  .filter((f) => process.argv.length <= 2 || process.argv.slice(2).includes(f.replace(/\.ts$/, "")))
  .sort();

let failed = false;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(here, file)], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`${file} failed (${result.signal ?? `exit ${result.status}`})`);
    failed = true;
    break;
  }
}
process.exit(failed ? 1 : 0);
