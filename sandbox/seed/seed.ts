import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import "../api/schema";
import { customerStore } from "../api/customer-store";
import { ensureBuiltInDimensions, externalTagFolder } from "../api/tags";
import { putStorageObject } from "../api/media";
import { isObserved } from "../config";
import type { SandboxContext } from "../context";
import { nextId } from "../ids";
import { ID_RANGE_PER_CUSTOMER, PLACES, POSTED, TAKEN, type IdKind, type RowBatch, type TenantPlan, type WorkerInput, type WorkerMessage } from "./generate-worker";

export type SeedOptions = {
  /** Customers of the first environment's tenant; the others get a tenth (at least 100, at most this). */
  customers: number;
  /** Leave a tenant alone when it already holds customers. */
  ifEmpty?: boolean;
  log?: (line: string) => void;
};

export type SeedSummary = { tenants: Array<{ environment: string; tenantId: number; customers: number; skipped: boolean }>; ms: number };

const DAY = 86_400_000;
const BATCH = 5000;

const TAGS: Array<[string, string]> = [
  ["新客", "basic"], ["老客", "basic"], ["会员", "basic"], ["高价值", "basic"], ["沉睡客户", "basic"],
  ["咖啡爱好者", "interests"], ["茶饮", "interests"], ["健身", "interests"], ["旅行", "interests"], ["美食", "interests"],
  ["价格敏感", "consumptive_habit"], ["爱用优惠券", "consumptive_habit"], ["夜猫子下单", "consumptive_habit"], ["直播购物", "consumptive_habit"],
  ["已流失", "lifecycle"], ["活跃", "lifecycle"],
];

/**
 * Fills every environment's tenant with realistic, deterministic data (seeded PRNG): customers with
 * Chinese names, +86 mobiles and emails, identities of every built-in type, md5 identities, events of
 * built-in and custom types over the last 60 days, orders with lines and refunds, lists with members,
 * tag dimensions and tags on customers, stores and a store group. A worker thread generates the
 * customers' rows (generate-worker.ts) while this thread inserts them, one transaction per batch; the
 * worker runs at most two batches ahead, so memory stays flat at any size.
 */
export function seedSandbox(ctx: SandboxContext, options: SeedOptions): SeedSummary {
  const started = Date.now();
  const summary: SeedSummary = { tenants: [], ms: 0 };
  const bulk = options.customers >= BULK_THRESHOLD;
  const restore = bulk ? dropBulkIndexes(ctx.db) : () => {};
  const restorePragmas = bulkLoadPragmas(ctx.db);
  try {
    seedEnvironments(ctx, options, summary);
  } finally {
    const indexStart = Date.now();
    restore();
    if (bulk) options.log?.(`indexes built in ${((Date.now() - indexStart) / 1000).toFixed(1)} s`);
    restorePragmas();
  }
  summary.ms = Date.now() - started;
  return summary;
}

/**
 * Settings for the bulk load; the returned function restores the previous ones. Seed data can be
 * regenerated, so the load skips fsyncs and the WAL (every page would be written twice: to the WAL,
 * then to the database). The rollback journal stays, in memory, so that a failed batch still rolls
 * back. (Measured for the index builds at 1,000,000 customers: `threads = 2` and `temp_store = MEMORY`
 * gained nothing, the sorts fit in memory, so they are left alone.)
 */
function bulkLoadPragmas(db: SandboxContext["db"]): () => void {
  const saved = (["journal_mode", "synchronous", "cache_size"] as const).map((name) => [name, db.pragma(name, { simple: true })] as const);
  db.pragma("journal_mode = MEMORY");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  return () => {
    for (const [name, value] of saved) db.pragma(`${name} = ${String(value)}`);
  };
}

/** Above this many customers the big tables' secondary indexes are built after loading, not row by row. */
const BULK_THRESHOLD = 50_000;
/**
 * Secondary indexes whose keys arrive in random order while seeding (values, times, names): built
 * after loading, where a sort beats row-by-row inserts. Indexes whose keys grow with the ids (tenant
 * + id, a handful of stages/sources/genders, customer ids) take appends cheaply and stay (measured
 * at 1,000,000 customers: index phase 74 s → 37 s, total CPU 107 s → 101 s).
 */
const BULK_INDEXES = [
  "customers_mobile", "customers_email", "customers_created", "customers_updated", "customers_name", "customer_identities_value", "customer_md5_value",
  "customer_events_tenant_date", "customer_events_tenant_updated",
];

/** Drops the secondary indexes of the big tables; the returned function creates them again. */
function dropBulkIndexes(db: SandboxContext["db"]): () => void {
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND name IN (${BULK_INDEXES.map(() => "?").join(",")})`)
    .all(...BULK_INDEXES) as Array<{ name: string; sql: string }>;
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  return () => {
    for (const index of indexes) db.exec(index.sql);
    // Planner statistics from a sample: exact counts are not needed to pick the right index.
    db.pragma("analysis_limit = 1000");
    db.exec("ANALYZE");
  };
}

function seedEnvironments(ctx: SandboxContext, options: SeedOptions, summary: SeedSummary): void {
  ctx.config.environments.forEach((env, index) => {
    const tenantId = env.tenant.id;
    const count = index === 0 ? options.customers : Math.min(options.customers, Math.max(100, Math.ceil(options.customers / 10)));
    const has = ctx.db.prepare("SELECT 1 FROM customers WHERE tenant_id = ? LIMIT 1").get(tenantId);
    if (options.ifEmpty && has) {
      options.log?.(`${env.name}: tenant ${tenantId} already has customers; not seeding`);
      summary.tenants.push({ environment: env.name, tenantId, customers: 0, skipped: true });
      return;
    }
    seedTenant(ctx, tenantId, count, options.log ?? (() => {}), env.name);
    summary.tenants.push({ environment: env.name, tenantId, customers: count, skipped: false });
  });
}

/** Inserts rows given as one flat list of column values, 100 rows per statement (far fewer native calls). */
function bulkInsert(db: SandboxContext["db"], head: string, width: number) {
  const PER = 100;
  const tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`;
  const full = db.prepare(`${head} VALUES ${Array.from({ length: PER }, () => tuple).join(", ")}`);
  const single = db.prepare(`${head} VALUES ${tuple}`);
  return (values: unknown[]) => {
    let i = 0;
    for (; i + width * PER <= values.length; i += width * PER) full.run(values.slice(i, i + width * PER));
    for (; i < values.length; i += width) single.run(values.slice(i, i + width));
  };
}

/**
 * Batches of the tenant's rows from the generator worker, taken synchronously (the seeder is
 * synchronous): the main thread blocks on the shared counter only when the worker is behind.
 */
function* generatedBatches(plan: TenantPlan): Generator<RowBatch> {
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const input: WorkerInput = { plan, port: port2, signal };
  // Node runs the worker's TypeScript itself; before 22.18 that needs the flag (engines: >= 22.13).
  const execArgv = process.features.typescript ? [] : ["--experimental-strip-types"];
  const worker = new Worker(new URL("./generate-worker.ts", import.meta.url), { workerData: input, transferList: [port2], execArgv });
  try {
    for (let taken = 0; taken * plan.batch < plan.count; ) {
      if (Atomics.wait(signal, POSTED, taken, WORKER_TIMEOUT_MS) === "timed-out") throw new Error("seed: the row generator worker stopped responding");
      const received = receiveMessageOnPort(port1);
      if (!received) continue;
      Atomics.store(signal, TAKEN, ++taken);
      Atomics.notify(signal, TAKEN);
      const message = received.message as WorkerMessage;
      if ("error" in message) throw new Error(`seed: the row generator failed: ${message.error}`);
      yield message.batch;
    }
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/** Longest wait for one batch before giving up (a worker that failed to start never posts). */
const WORKER_TIMEOUT_MS = 120_000;

function seedTenant(ctx: SandboxContext, tenant: number, count: number, log: (line: string) => void, envName: string): void {
  const db = ctx.db;
  const now = ctx.clock.nowMs();
  const started = Date.now();

  // Reference data: dimensions, tags, lists, stores.
  ensureBuiltInDimensions(db, tenant, now);
  const tagIds: bigint[] = [];
  db.transaction(() => {
    if (!db.prepare("SELECT 1 FROM tag_dimensions WHERE tenant_id = ? AND dimension_key = 'lifecycle'").get(tenant)) {
      db.prepare("INSERT INTO tag_dimensions (id, tenant_id, dimension_key, name, date_created, last_updated) VALUES (?, ?, 'lifecycle', '生命周期', ?, ?)").run(nextId(db, "tagDimension"), tenant, now, now);
    }
    for (const [name, dimension] of TAGS) {
      const existing = db.prepare("SELECT id FROM tags WHERE tenant_id = ? AND name = ?").safeIntegers(true).get(tenant, name) as { id: bigint } | undefined;
      if (existing) tagIds.push(existing.id);
      else {
        const id = nextId(db, "tag");
        db.prepare("INSERT INTO tags (id, tenant_id, name, dimension, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)").run(id, tenant, name, dimension, now, now);
        tagIds.push(id);
      }
    }
  })();
  const listIds: bigint[] = [];
  db.transaction(() => {
    for (const name of ["VIP 客户", "双十一活动", "新品试用", "门店会员", "流失召回", "直播间观众", "母婴人群", "企业客户"]) {
      const id = nextId(db, "list");
      db.prepare("INSERT INTO lists (id, tenant_id, name, date_created, last_updated) VALUES (?, ?, ?, ?, ?)").run(id, tenant, name, now - 30 * DAY, now - 30 * DAY);
      listIds.push(id);
    }
    const storeIds: bigint[] = [];
    for (let i = 0; i < 12; i++) {
      const [province, city, district] = PLACES[i % PLACES.length]!;
      const branch = `${city.replace("市", "")}${["万达", "来福士", "大悦城", "太古里"][i % 4]}店`;
      const info = {
        business: {
          base_info: {
            sid: `S${String(i + 1).padStart(4, "0")}`, telephone: `021-6${String(1000000 + i * 7919).slice(0, 7)}`, business_name: "贝果咖啡", branch_name: branch,
            province, city, district, address: `${district}示例路 ${i + 1} 号`, categories: ["美食,咖啡厅"], longitude: 121.47 + i / 100, latitude: 31.23 + i / 100,
            offset_type: 1, avg_price: 35, open_time: "08:00-22:00",
          },
        },
      };
      const id = nextId(db, "store");
      db.prepare(
        `INSERT INTO stores (id, tenant_id, sid, branch_name, shop_name, business_name, owner_id, owner_name, shop_info_all, meta, remark, date_created, last_updated)
         VALUES (?, ?, ?, ?, ?, '贝果咖啡', NULL, NULL, ?, ?, NULL, ?, ?)`,
      ).run(id, tenant, info.business.base_info.sid, branch, `贝果咖啡(${branch})`, JSON.stringify(info), JSON.stringify({ categories: info.business.base_info.categories }), now, now);
      storeIds.push(id);
    }
    // Shops in groups: a group read is how the console learns of them (§4.8 lists no shops). The last
    // two shops are in no group, so the console cannot know them (tests: a sid the platform refuses).
    for (const [name, remark, members] of [["华东门店", "上海、杭州、南京", storeIds.slice(0, 6)], ["华南及其他门店", "广州、深圳及其他城市", storeIds.slice(6, 10)]] as const) {
      const groupId = nextId(db, "storeGroup");
      db.prepare("INSERT INTO store_groups (id, tenant_id, name, remark, creator_id, creator_name, date_created, last_updated) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?)").run(groupId, tenant, name, remark, now, now);
      for (const id of members) db.prepare("INSERT INTO store_group_members (group_id, store_id) VALUES (?, ?)").run(groupId, id);
    }
    putStorageObject(db, tenant, `${externalTagFolder(now)}tags.txt`, "外部标签-高潜\n外部标签-复购\n", now);
  })();

  const insert = {
    customers: bulkInsert(db, "INSERT INTO customers (id, tenant_id, name, nick_name, mobile, email, gender, stage, source, date_created, last_updated, doc)", 12),
    identities: bulkInsert(db, "INSERT INTO customer_identities (id, tenant_id, customer_id, type, value, name, date_created, last_updated)", 8),
    md5s: bulkInsert(db, "INSERT INTO customer_md5_identities (id, tenant_id, customer_id, md5type, type, value, md5value, date_created, last_updated)", 9),
    events: bulkInsert(db, "INSERT INTO customer_events (id, tenant_id, customer_id, event, date, last_updated, external_id, score, doc)", 9),
    deals: bulkInsert(db, "INSERT INTO deals (id, tenant_id, customer_id, order_no, date_order, state, amount_paid, date_created, last_updated, doc)", 10),
    refunds: bulkInsert(db, "INSERT INTO refunds (id, tenant_id, order_no, customer_id, date_created, last_updated, doc)", 7),
    members: bulkInsert(db, "INSERT OR IGNORE INTO list_members (id, tenant_id, list_id, customer_id, date_created, last_updated)", 6),
    tags: bulkInsert(db, "INSERT OR IGNORE INTO customer_tags (customer_id, tag_id, tenant_id, date_created)", 4),
  } satisfies Record<keyof RowBatch, (values: unknown[]) => void>;

  // Custom event type definitions (§2.3), so that API calls later see the seeded properties.
  db.prepare("INSERT OR REPLACE INTO custom_event_types (tenant_id, event, props) VALUES (?, ?, ?)").run(tenant, "c_coupon_claim", JSON.stringify({ couponName: "string", couponValue: "money", channel: "string" }));
  db.prepare("INSERT OR REPLACE INTO custom_event_types (tenant_id, event, props) VALUES (?, ?, ?)").run(tenant, "c_live_watch", JSON.stringify({ roomName: "string", watchSeconds: "count" }));

  // Generated mobiles, emails and open ids embed the running number, so a second seed continues after the first.
  // The running number lives in id_sequences (kind `seed:<tenant>`), so deleted customers never make it repeat.
  const offset =
    Number(
      (db
        .prepare("INSERT INTO id_sequences (kind, last) VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET last = last + excluded.last RETURNING last")
        .get(`seed:${tenant}`, count) as { last: number }).last,
    ) - count;
  // Id ranges for every row the generator may make (upper bounds; unused ids are simply skipped).
  const firstIds = Object.fromEntries(Object.entries(ID_RANGE_PER_CUSTOMER).map(([kind, perCustomer]) => [kind, nextId(db, kind, Math.max(1, count * perCustomer))])) as Record<IdKind, bigint>;
  const plan: TenantPlan = {
    tenant, now, count, batch: BATCH, offset, tagKey: `${envName}-${tenant}`, tagIds, listIds, firstIds,
    extraFields: isObserved(ctx.config.environments.find((e) => e.name === envName)),
    orderSeq: (db.prepare("SELECT count(*) AS n FROM deals WHERE tenant_id = ?").get(tenant) as { n: number }).n,
  };
  let done = 0;
  for (const batch of generatedBatches(plan)) {
    db.transaction(() => {
      for (const table of Object.keys(insert) as Array<keyof RowBatch>) insert[table](batch[table]);
    })();
    done = Math.min(count, done + BATCH);
    if ((done / BATCH) % 20 === 0 || done === count) log(`${envName}: ${done} / ${count} customers (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  customerStore(db).rebuildRankBlocks(tenant);
}
