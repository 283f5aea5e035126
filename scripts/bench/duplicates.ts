/**
 * Benchmark of the duplicate finder (README "Duplicates"; not a test; `npm run bench -- duplicates`).
 * One run: the people index's tables filled directly (no platform) with DUPLICATES_BENCH_CUSTOMERS
 * customers (default 1,000,000), 2 % of them planted duplicates of another customer, spread over the
 * rules (a mobile typed with +86 / dashes, an email in other case or Gmail dots, the same identity,
 * the same name with the mobile's last 8 digits, the same name and birthday), then the whole-tenant
 * pass timed on SQLite and, with TEST_DATABASE_URL, PostgreSQL (a database of its own, dropped after).
 * Birthdays come from memory (the app reads them from the platform). Prints, per dialect: the pass's
 * time against the 60 s target, recall of the planted pairs per rule (target ≥ 99 % for the exact
 * rules) and each rule's precision (planted pairs / pairs found), and the load average.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { benchStores } from "./support/bench-stores";

if (!process.execArgv.includes("--conditions=react-server")) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename], { stdio: "inherit", env: { ...process.env, LOG_LEVEL: "warn" } });
  process.exit(result.status ?? 1);
}

const CUSTOMERS = Number(process.env.DUPLICATES_BENCH_CUSTOMERS ?? 1_000_000);
const PLANTED_SHARE = 0.02;
const TARGET_S = 60;
const TENANT = 1;

/** Deterministic PRNG (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SURNAMES = [..."王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"];
const GIVEN = [..."伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏建文辉力俊峰宇浩凯亮健波斌云飞鑫博雪琳晨欣怡嘉子轩涵梓彤佳悦思语诗雨萱睿哲"];

type Row = { id: string; name: string; mobile: string | null; email: string | null; identities: Array<{ type: string; value: string }> | null; birthday: string };
type PlantRule = "mobile" | "email" | "identity" | "nameMobile8" | "nameBirthday";

function generate(n: number) {
  const rnd = prng(20261129);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const rows: Row[] = [];
  const planted: Array<{ a: string; b: string; rule: PlantRule }> = [];
  const plantRules: PlantRule[] = ["mobile", "email", "identity", "nameMobile8", "nameBirthday"];
  const day = (i: number) => new Date(Date.UTC(1960, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < n; i++) {
    const id = String(1_000_000 + i);
    const base = rows.length > 100 && rnd() < PLANTED_SHARE ? rows[Math.floor(rnd() * rows.length)]! : undefined;
    if (base) {
      const rule = plantRules[planted.length % plantRules.length]!;
      const other: Row = { id, name: pick(SURNAMES) + pick(GIVEN) + pick(GIVEN), mobile: `13${String(Math.floor(rnd() * 1e9)).padStart(9, "0")}`, email: `p${id}@example.cn`, identities: [{ type: "wechat", value: `o${id}` }], birthday: day(Math.floor(rnd() * 20000)) };
      if (rule === "mobile" && base.mobile) other.mobile = `+86 ${base.mobile.slice(0, 3)}-${base.mobile.slice(3, 7)}-${base.mobile.slice(7)}`;
      else if (rule === "email" && base.email) other.email = base.email.toUpperCase();
      else if (rule === "identity") other.identities = [{ type: "wechat", value: base.identities![0]!.value }];
      else if (rule === "nameMobile8" && base.mobile) Object.assign(other, { name: base.name, mobile: `0${base.mobile.slice(1)}` });
      else if (rule === "nameBirthday") Object.assign(other, { name: base.name, birthday: base.birthday });
      else other.identities = [{ type: "wechat", value: base.identities![0]!.value }];
      rows.push(other);
      // A base without the rule's field is planted by identity instead.
      const used: PlantRule = (rule === "mobile" || rule === "nameMobile8") && !base.mobile ? "identity" : rule === "email" && !base.email ? "identity" : rule;
      planted.push({ a: base.id, b: id, rule: used });
      continue;
    }
    rows.push({
      id,
      name: pick(SURNAMES) + pick(GIVEN) + (rnd() < 0.7 ? pick(GIVEN) : ""),
      mobile: rnd() < 0.9 ? `1${3 + Math.floor(rnd() * 6)}${String(Math.floor(rnd() * 1e9)).padStart(9, "0")}` : null,
      email: rnd() < 0.6 ? `u${id}.${Math.floor(rnd() * 1e6)}@${pick(["qq.com", "163.com", "gmail.com", "outlook.com"])}` : null,
      identities: [{ type: "wechat", value: `o${id}` }],
      birthday: day(Math.floor(rnd() * 20000)),
    });
  }
  return { rows, planted };
}

async function main() {
  const { openStore } = await import("../../lib/store/database");
  const { sql } = await import("kysely");
  const { scanTenant } = await import("../../lib/duplicates/duplicate-scan");
  const { sharedKeys } = await import("../../lib/duplicates/duplicate-store");
  const { pairsOf } = await import("../../lib/duplicates/clusters");
  const { EXACT_RULES, RULES } = await import("../../lib/duplicates/match-keys");

  console.log(`generating ${CUSTOMERS.toLocaleString("en")} customers, ${PLANTED_SHARE * 100} % planted duplicates…`);
  const { rows, planted } = generate(CUSTOMERS);
  const birthdays = new Map(rows.map((r) => [r.id, r.birthday]));
  const dir = mkdtempSync(path.join(tmpdir(), "duplicates-bench-"));
  const { stores: dialects, drop } = await benchStores(dir, "bench_dup");
  let failed = false;
  try {
    for (const dialect of dialects) {
      const store = await openStore({ database: dialect.database, tokenKeys: [{ id: "bench", key: randomBytes(32) }] });
      try {
        const fillStart = performance.now();
        for (let i = 0; i < rows.length; i += 20_000) {
          const part = rows.slice(i, i + 20_000).map((r) => [r.id, r.name, r.mobile, r.email, r.identities ? JSON.stringify(r.identities) : null, r.name.toLowerCase()]);
          if (store.dialect === "sqlite") {
            await sql`INSERT INTO customer_index (tenant, customer_id, name, mobile, email, identities, name_key, search_text) SELECT ${TENANT}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, '' FROM json_each(${JSON.stringify(part)})`.execute(store.db);
          } else {
            const col = (k: number) => part.map((p) => p[k] ?? null);
            await sql`INSERT INTO customer_index (tenant, customer_id, name, mobile, email, identities, name_key, search_text) SELECT ${TENANT}, a, b, c, d, e, f, '' FROM unnest(${col(0)}::text[], ${col(1)}::text[], ${col(2)}::text[], ${col(3)}::text[], ${col(4)}::text[], ${col(5)}::text[]) AS t(a, b, c, d, e, f)`.execute(store.db);
          }
        }
        if (store.dialect === "postgres") await sql`ANALYZE customer_index`.execute(store.db);
        console.log(`${dialect.name}: index filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s (not part of the pass)`);

        const started = performance.now();
        const phases: string[] = [];
        let phase = "";
        let phaseStart = started;
        const result = await scanTenant(
          { store, birthdays: async (ids) => new Map(ids.map((id) => [id, birthdays.get(id) ?? null])) },
          {
            input: { tenant: TENANT },
            checkpoint: undefined,
            async progress(update) {
              if (update.message !== phase) {
                if (phase) phases.push(`${phase} ${((performance.now() - phaseStart) / 1000).toFixed(1)} s`);
                phase = update.message ?? "";
                phaseStart = performance.now();
              }
            },
            async throwIfCancelled() {},
          },
        );
        const seconds = (performance.now() - started) / 1000;
        const pairs = pairsOf(await sharedKeys(store, TENANT));
        const found = new Map<string, Set<string>>();
        for (const p of pairs) for (const r of p.rules) found.set(r, (found.get(r) ?? new Set()).add(`${p.a}:${p.b}`));
        const plantedBy = new Map<string, Set<string>>();
        for (const p of planted) plantedBy.set(p.rule, (plantedBy.get(p.rule) ?? new Set()).add(`${p.a}:${p.b}`));
        const allPlanted = new Set(planted.map((p) => `${p.a}:${p.b}`));
        console.log(`${dialect.name}: whole-tenant pass over ${result.customers.toLocaleString("en")} customers in ${seconds.toFixed(1)} s (target ≤ ${TARGET_S} s: ${(seconds / TARGET_S).toFixed(2)} × target); ${result.keys.toLocaleString("en")} keys; ${result.birthdaysRead.toLocaleString("en")} birthdays read; phases: ${phases.join(", ")}`);
        if (seconds > TARGET_S) failed = true;
        for (const rule of RULES) {
          const mine = plantedBy.get(rule) ?? new Set();
          const hits = found.get(rule) ?? new Set();
          const recalled = [...mine].filter((k) => hits.has(k)).length;
          const truePairs = [...hits].filter((k) => allPlanted.has(k)).length;
          const recall = mine.size ? recalled / mine.size : 1;
          const exact = EXACT_RULES.includes(rule);
          console.log(
            `  ${rule.padEnd(13)} planted ${String(mine.size).padStart(5)}  recall ${(recall * 100).toFixed(2)} %${exact ? ` (target ≥ 99 %: ${(recall / 0.99).toFixed(3)} × target)` : ""}  found ${String(hits.size).padStart(6)} pairs, precision ${hits.size ? ((truePairs / hits.size) * 100).toFixed(2) : "—"} %`,
          );
          if (exact && recall < 0.99) failed = true;
        }
      } finally {
        await store.close();
      }
    }
    console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await drop();
  }
  if (failed) process.exitCode = 1;
}

void main();
