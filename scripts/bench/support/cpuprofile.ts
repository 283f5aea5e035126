/**
 * Where a server's CPU time went, from a V8 `.cpuprofile` (`node --cpu-prof`; scripts/bench/proxy.ts
 * with BENCH_PROFILE=<dir> writes one per Next server and prints this for the app against the floor).
 * Time is read from the samples (self: the function on top of the stack; total: anywhere in it,
 * once per sample however deep it recurses), optionally only within a window of the profile's clock
 * (CLOCK_MONOTONIC µs, the same as `process.hrtime` of any process on the machine), and given in µs
 * per request, scaled to the CPU time the process used when that is known.
 *
 *   npx tsx scripts/bench/support/cpuprofile.ts <file.cpuprofile> [--requests N] [--top 30]
 */
import { readFileSync } from "node:fs";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** µs per request (or µs in all when requests is 0) by package, by function (self), by function (total). */
export type CpuSummary = { busyUs: number; perRequest: number; packages: Map<string, number>; self: Map<string, number>; total: Map<string, number> };

function packageOf(url: string): string {
  if (!url) return "(native, V8, GC)";
  if (url.startsWith("node:")) return "node internals";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] === "next" ? `next/${/next\/dist\/([^/]+\/[^/.]+)/.exec(url)?.[1] ?? "?"}` : nm[1]!;
  if (url.includes("/.next/")) return "the build's chunks (app code, bundled packages)";
  return url.replace(/^file:\/\//, "");
}

function frameName(f: CallFrame): string {
  const file = f.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "").replace(/^.*\/\.next\//, ".next/");
  return `${f.functionName || "(anonymous)"}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
}

/**
 * `window`: [from, to] in the profile's clock (µs); `requests`: served within it; `cpuUs`: the CPU
 * time the process used within it (from /proc). The sampler counts wall time, so on a busy machine
 * a sample also holds the time the process waited for a core; with `cpuUs` every figure is scaled
 * to the CPU time actually used.
 */
export function summarize(file: string, options: { window?: [number, number]; requests?: number; cpuUs?: number } = {}): CpuSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const names = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));

  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  const summary: CpuSummary = { busyUs: 0, perRequest: options.requests || 1, packages: new Map(), self: new Map(), total: new Map() };
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (options.window && (t < options.window[0] || t > options.window[1])) continue;
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === "(idle)") continue;
    summary.busyUs += dt;
    add(summary.self, names.get(leaf.id)!, dt);
    add(summary.packages, packageOf(leaf.callFrame.url), dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) seen.add(names.get(id)!);
    for (const name of seen) add(summary.total, name, dt);
  }
  const scale = (options.cpuUs ? options.cpuUs / summary.busyUs : 1) / summary.perRequest;
  if (options.cpuUs) summary.busyUs = options.cpuUs;
  for (const map of [summary.packages, summary.self, summary.total]) for (const [k, v] of map) map.set(k, v * scale);
  return summary;
}

const sorted = (map: Map<string, number>, top: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
const us = (n: number) => n.toFixed(1).padStart(8);

export function printSummary(s: CpuSummary, top = 30): void {
  console.log(`busy ${(s.busyUs / 1000).toFixed(0)} ms, ${us(s.busyUs / s.perRequest)} µs per request`);
  for (const [title, map] of [["self time by package", s.packages], ["self time by function", s.self], ["total time by function", s.total]] as const) {
    console.log(`\n${title} (µs/request)`);
    for (const [name, v] of sorted(map, top)) console.log(`${us(v)}  ${name}`);
  }
}

/** What `a` spends per request beyond `b` (e.g. the app beyond the floor), largest first. */
export function printDifference(a: CpuSummary, b: CpuSummary, labels: [string, string], top = 30): void {
  console.log(`busy µs per request: ${labels[0]} ${(a.busyUs / a.perRequest).toFixed(0)}, ${labels[1]} ${(b.busyUs / b.perRequest).toFixed(0)}`);
  for (const [title, ma, mb] of [["self time by package", a.packages, b.packages], ["self time by function", a.self, b.self], ["total time by function", a.total, b.total]] as const) {
    const diff = new Map<string, number>();
    for (const key of new Set([...ma.keys(), ...mb.keys()])) diff.set(key, (ma.get(key) ?? 0) - (mb.get(key) ?? 0));
    console.log(`\n${title}, µs/request: ${labels[0]} − ${labels[1]} (${labels[0]}, ${labels[1]})`);
    for (const [name, v] of sorted(diff, top)) console.log(`${us(v)} (${us(ma.get(name) ?? 0)}, ${us(mb.get(name) ?? 0)})  ${name}`);
  }
}

if (process.argv[1] === import.meta.filename) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const file = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
  if (!file) throw new Error("usage: cpuprofile.ts <file.cpuprofile> [--requests N] [--top 30]");
  printSummary(summarize(file, { requests: Number(option("--requests") ?? 0) }), Number(option("--top") ?? 30));
}
