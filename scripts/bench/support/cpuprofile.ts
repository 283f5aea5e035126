/**
 * Reads a V8 `.cpuprofile` (`node --cpu-prof`, e.g. from `BENCH_PROFILE=<dir>` of
 * scripts/bench/proxy.ts) and prints where the time went: the top functions by self time and by
 * total time (a function counted once per sample however deep it recurses), and self time by
 * package (node_modules/<name>, the build's chunks, Node's internals). With `--requests N` the times
 * are also given in µs per request.
 *
 *   npx tsx scripts/bench/support/cpuprofile.ts <file.cpuprofile> [--requests N] [--top 30] [--match text]
 *
 * `--match text` keeps only the samples whose stack holds a function or file containing `text`
 * (e.g. `handleProxyRequest`), to see what one piece of code spends.
 */
import { readFileSync } from "node:fs";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

function packageOf(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node internals";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] === "next" ? `next (${/next\/dist\/([^/]+(?:\/[^/]+)?)/.exec(url)?.[1] ?? "?"})` : nm[1]!;
  const chunk = /\.next\/(server\/[^/]+)/.exec(url);
  if (chunk) return `build: .next/${chunk[1]}`;
  return url.replace(/^file:\/\//, "");
}

function frameName(f: CallFrame): string {
  const file = f.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "").replace(/^.*\/\.next\//, ".next/");
  return `${f.functionName || "(anonymous)"} ${file ? `${file}:${f.lineNumber + 1}` : ""}`.trim();
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith("--") && !/^\d+$/.test(a));
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!file) throw new Error("usage: cpuprofile.ts <file.cpuprofile> [--requests N] [--top 30] [--match text]");
  const requests = Number(option("--requests") ?? 0);
  const top = Number(option("--top") ?? 30);
  const match = option("--match");
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const packages = new Map<string, number>();
  let all = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === "(idle)") {
      idle += dt;
      continue;
    }
    const stack: CallFrame[] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
    if (match && !stack.some((f) => f.functionName.includes(match) || f.url.includes(match))) continue;
    all += dt;
    const leafName = frameName(leaf.callFrame);
    self.set(leafName, (self.get(leafName) ?? 0) + dt);
    const pkg = packageOf(leaf.callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
    for (const name of new Set(stack.map(frameName))) total.set(name, (total.get(name) ?? 0) + dt);
  }

  const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
  const per = (us: number) => (requests > 0 ? `${(us / requests).toFixed(1).padStart(8)} µs/req` : "");
  const pct = (us: number) => `${((100 * us) / all).toFixed(1).padStart(5)} %`;
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ms ${pct(us)} ${per(us)}  ${name}`);
  };
  const wall = profile.endTime - profile.startTime;
  console.log(`${file}: ${(wall / 1e6).toFixed(1)} s profiled, ${(all / 1e6).toFixed(2)} s busy${match ? ` under "${match}"` : ""}, ${(idle / 1e6).toFixed(2)} s idle${requests ? `; ${requests} requests` : ""}`);
  print("self time by package", packages);
  print("self time by function", self);
  print("total time by function", total);
}

main();
