/**
 * `npm run bench`: runs every benchmark in scripts/bench (except this file) one after the other,
 * each in its own process, and stops at the first failure. `npm run bench -- <name>…` runs only the
 * benchmarks named (`duplicates` runs duplicates.ts).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run-all.ts" && !f.endsWith(".test.ts"))
  .sort();
const wanted = process.argv.slice(2).map((name) => name.replace(/\.ts$/, ""));
const chosen = wanted.length === 0 ? benches : benches.filter((f) => wanted.includes(f.replace(/\.ts$/, "")));
if (wanted.length > 0 && chosen.length !== wanted.length) {
  console.error(`unknown benchmark: ${wanted.filter((w) => !benches.includes(`${w}.ts`)).join(", ")} (there are: ${benches.map((f) => f.replace(/\.ts$/, "")).join(", ")})`);
  process.exit(2);
}

let failed = false;
for (const file of chosen) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(here, file)], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`${file} failed (${result.signal ?? `exit ${result.status}`})`);
    failed = true;
    break;
  }
}
process.exit(failed ? 1 : 0);
