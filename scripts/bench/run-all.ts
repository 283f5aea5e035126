/**
 * `npm run bench`: runs every benchmark in scripts/bench (except this file) one after the other,
 * each in its own process, and stops at the first failure. `npm run bench -- <name> [<name>…]`
 * runs only those (`customer-index` or `customer-index.ts`).
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
const asked = process.argv.slice(2).map((name) => (name.endsWith(".ts") ? name : `${name}.ts`));
const unknown = asked.filter((name) => !benches.includes(name));
if (unknown.length > 0) {
  console.error(`no such benchmark: ${unknown.join(", ")} (there are: ${benches.map((f) => f.replace(/\.ts$/, "")).join(", ")})`);
  process.exit(2);
}
const chosen = asked.length > 0 ? benches.filter((file) => asked.includes(file)) : benches;

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
