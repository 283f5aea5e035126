import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
if (!process.execArgv.includes("--conditions=react-server")) {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
const { openStore } = await import("../../lib/store/database");
const { sql } = await import("kysely");
const { matchKeysOf } = await import("../../lib/duplicates/match-keys");
const { insertKeys } = await import("../../lib/duplicates/duplicate-store");
const store = await openStore({ database: { kind: "sqlite", file: "/tmp/dupprof.sqlite" }, tokenKeys: [{ id: "b", key: randomBytes(32) }] });
const N = 100000;
const part = Array.from({ length: N }, (_, i) => [String(1000000 + i), "王小明" + (i % 1000), "139" + String(i).padStart(8, "0"), `u${i}@qq.com`, JSON.stringify([{ type: "wechat", value: "o" + i }]), "x"]);
await sql`DELETE FROM customer_index`.execute(store.db);
await sql`DELETE FROM duplicate_keys`.execute(store.db);
await sql`INSERT INTO customer_index (tenant, customer_id, name, mobile, email, identities, name_key, search_text) SELECT 1, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, '' FROM json_each(${JSON.stringify(part)})`.execute(store.db);
let t = performance.now();
let after = "";
let rows: any[] = [];
const all: any[] = [];
for (;;) {
  rows = await store.db.selectFrom("customer_index").select(["customer_id", "name", "mobile", "email", "identities"]).where("tenant", "=", 1).where("customer_id", ">", after).orderBy("customer_id").limit(10000).execute();
  if (!rows.length) break;
  all.push(...rows);
  after = rows.at(-1).customer_id;
}
console.log("read", performance.now() - t); t = performance.now();
const computed = all.map((r) => ({ id: r.customer_id, keys: matchKeysOf({ name: r.name, mobile: r.mobile, email: r.email, identities: JSON.parse(r.identities) }) }));
console.log("compute", performance.now() - t); t = performance.now();
for (let i = 0; i < computed.length; i += 10000) await store.db.transaction().execute((tx) => insertKeys(tx, "sqlite", 1, computed.slice(i, i + 10000)));
console.log("insert", performance.now() - t);
await store.close();
