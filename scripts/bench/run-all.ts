/**
 * `npm run bench`: runs every benchmark in scripts/bench (except this file) one after the other,
 * each in its own process, and stops at the first failure.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
// `npm run bench -- audit proxy`: only the benchmarks whose file names contain one of the words.
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run-all.ts" && !f.endsWith(".test.ts"))
  .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
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
