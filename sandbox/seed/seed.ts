import "../api/schema";
import { md5 } from "../api/identities";
import { customerStore } from "../api/customer-store";
import { ensureBuiltInDimensions, externalTagFolder } from "../api/tags";
import { putStorageObject } from "../api/media";
import type { SandboxContext } from "../context";
import { nextId } from "../ids";
import { formatUtc } from "../clock";

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

/** `n` pseudo-random hex digits. */
function hex(rnd: ReturnType<typeof prng>, n: number): string {
  let out = "";
  while (out.length < n) out += Math.floor(rnd.next() * 0x100000000).toString(16).padStart(8, "0");
  return out.slice(0, n);
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

const SURNAMES = [["王", "wang"], ["李", "li"], ["张", "zhang"], ["刘", "liu"], ["陈", "chen"], ["杨", "yang"], ["黄", "huang"], ["赵", "zhao"], ["吴", "wu"], ["周", "zhou"], ["徐", "xu"], ["孙", "sun"], ["马", "ma"], ["朱", "zhu"], ["胡", "hu"], ["郭", "guo"], ["何", "he"], ["林", "lin"], ["罗", "luo"], ["高", "gao"]] as const;
const GIVEN = [["伟", "wei"], ["芳", "fang"], ["娜", "na"], ["敏", "min"], ["静", "jing"], ["丽", "li"], ["强", "qiang"], ["磊", "lei"], ["军", "jun"], ["洋", "yang"], ["勇", "yong"], ["艳", "yan"], ["杰", "jie"], ["娟", "juan"], ["涛", "tao"], ["明", "ming"], ["超", "chao"], ["秀英", "xiuying"], ["霞", "xia"], ["平", "ping"], ["婷婷", "tingting"], ["子涵", "zihan"], ["浩然", "haoran"], ["思琪", "siqi"]] as const;
const NICKS = ["小鱼儿", "阳光少年", "奶茶控", "追风", "木子", "晴天", "橙子", "Lucky", "喵小姐", "旅行者", "吃货一枚", "Kevin", "安静的猫"];
const PLACES = [["上海", "上海市", "浦东新区"], ["北京", "北京市", "朝阳区"], ["广东", "广州市", "天河区"], ["广东", "深圳市", "南山区"], ["浙江", "杭州市", "西湖区"], ["江苏", "南京市", "鼓楼区"], ["四川", "成都市", "武侯区"], ["湖北", "武汉市", "洪山区"]] as const;
const STAGES = ["潜在客户", "意向客户", "首次购买", "重复购买", "忠诚客户"];
const SOURCES = ["微信公众号", "天猫旗舰店", "线下门店", "官网注册", "小程序", "抖音"];
const MOBILE_PREFIXES = ["138", "139", "136", "158", "186", "189", "177", "150"];
const BUILT_IN_EVENTS = [["open_page", 1], ["click_link", 2], ["submit_form", 5], ["messenger_follow", 3], ["messenger_message", 1]] as const;
const CUSTOM_EVENTS = ["c_coupon_claim", "c_live_watch"] as const;
const PRODUCTS = [["SKU-TEA-01", "龙井茶礼盒", "茶叶", 168], ["SKU-COF-02", "挂耳咖啡 20 包", "咖啡", 79], ["SKU-MUG-03", "陶瓷马克杯", "杯具", 59], ["SKU-SNK-04", "坚果大礼包", "零食", 129], ["SKU-JUI-05", "NFC 橙汁 6 瓶", "饮料", 88]] as const;
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
 * tag dimensions and tags on customers, stores and a store group. Batched transactions keep memory flat.
 */
export function seedSandbox(ctx: SandboxContext, options: SeedOptions): SeedSummary {
  const started = Date.now();
  const summary: SeedSummary = { tenants: [], ms: 0 };
  const bulk = options.customers >= BULK_THRESHOLD;
  const restore = bulk ? dropBulkIndexes(ctx.db) : () => {};
  const cacheSize = ctx.db.pragma("cache_size", { simple: true }) as number;
  const synchronous = ctx.db.pragma("synchronous", { simple: true }) as number;
  ctx.db.pragma("cache_size = -262144");
  // Seed data can be regenerated, so the load skips fsyncs; the setting is restored afterwards.
  ctx.db.pragma("synchronous = OFF");
  try {
    seedEnvironments(ctx, options, summary);
  } finally {
    const indexStart = Date.now();
    restore();
    if (bulk) options.log?.(`indexes built in ${((Date.now() - indexStart) / 1000).toFixed(1)} s`);
    ctx.db.pragma(`cache_size = ${cacheSize}`);
    ctx.db.pragma(`synchronous = ${synchronous}`);
  }
  summary.ms = Date.now() - started;
  return summary;
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

/** Buffers rows of one table and writes them 100 at a time with a multi-row INSERT (far fewer native calls). */
class BulkInserter {
  private rows: unknown[] = [];
  private readonly full;
  private readonly single;
  constructor(
    private readonly db: SandboxContext["db"],
    head: string,
    private readonly width: number,
    private readonly per = 100,
  ) {
    const tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`;
    this.full = db.prepare(`${head} VALUES ${Array.from({ length: per }, () => tuple).join(", ")}`);
    this.single = db.prepare(`${head} VALUES ${tuple}`);
  }
  run(...values: unknown[]): void {
    this.rows.push(...values);
    if (this.rows.length === this.width * this.per) {
      this.full.run(...this.rows);
      this.rows = [];
    }
  }
  flush(): void {
    for (let i = 0; i < this.rows.length; i += this.width) this.single.run(...this.rows.slice(i, i + this.width));
    this.rows = [];
  }
}

function seedTenant(ctx: SandboxContext, tenant: number, count: number, log: (line: string) => void, envName: string): void {
  const db = ctx.db;
  const now = ctx.clock.nowMs();
  const rnd = prng(tenant % 2 ** 31);
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
    const groupId = nextId(db, "storeGroup");
    db.prepare("INSERT INTO store_groups (id, tenant_id, name, remark, creator_id, creator_name, date_created, last_updated) VALUES (?, ?, '华东门店', '上海、杭州、南京', NULL, NULL, ?, ?)").run(groupId, tenant, now, now);
    for (const id of storeIds.slice(0, 6)) db.prepare("INSERT INTO store_group_members (group_id, store_id) VALUES (?, ?)").run(groupId, id);
    putStorageObject(db, tenant, `${externalTagFolder(now)}tags.txt`, "外部标签-高潜\n外部标签-复购\n", now);
  })();

  const insCustomer = new BulkInserter(db, "INSERT INTO customers (id, tenant_id, name, nick_name, mobile, email, gender, stage, source, date_created, last_updated, doc)", 12);
  const insIdentity = new BulkInserter(db, "INSERT INTO customer_identities (id, tenant_id, customer_id, type, value, name, date_created, last_updated)", 8);
  const insMd5 = new BulkInserter(db, "INSERT INTO customer_md5_identities (id, tenant_id, customer_id, md5type, type, value, md5value, date_created, last_updated)", 9);
  const insEvent = new BulkInserter(db, "INSERT INTO customer_events (id, tenant_id, customer_id, event, date, last_updated, external_id, score, doc)", 9);
  const insDeal = db.prepare("INSERT INTO deals (id, tenant_id, customer_id, order_no, date_order, state, amount_paid, date_created, last_updated, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insRefund = db.prepare("INSERT INTO refunds (id, tenant_id, order_no, customer_id, date_created, last_updated, doc) VALUES (?, ?, ?, ?, ?, ?, ?)");
  const insMember = db.prepare("INSERT OR IGNORE INTO list_members (id, tenant_id, list_id, customer_id, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)");
  const insTag = new BulkInserter(db, "INSERT OR IGNORE INTO customer_tags (customer_id, tag_id, tenant_id, date_created)", 4);

  // Custom event type definitions (§2.3), so that API calls later see the seeded properties.
  db.prepare("INSERT OR REPLACE INTO custom_event_types (tenant_id, event, props) VALUES (?, ?, ?)").run(tenant, "c_coupon_claim", JSON.stringify({ couponName: "string", couponValue: "money", channel: "string" }));
  db.prepare("INSERT OR REPLACE INTO custom_event_types (tenant_id, event, props) VALUES (?, ?, ?)").run(tenant, "c_live_watch", JSON.stringify({ roomName: "string", watchSeconds: "count" }));

  const tagKey = `${envName}-${tenant}`;
  // Generated mobiles, emails and open ids embed the running number, so a second seed continues after the first.
  // The running number lives in id_sequences (kind `seed:<tenant>`), so deleted customers never make it repeat.
  const offset =
    Number(
      (db
        .prepare("INSERT INTO id_sequences (kind, last) VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET last = last + excluded.last RETURNING last")
        .get(`seed:${tenant}`, count) as { last: number }).last,
    ) - count;
  let orderSeq = (db.prepare("SELECT count(*) AS n FROM deals WHERE tenant_id = ?").get(tenant) as { n: number }).n;
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start);
    db.transaction(() => {
      let customerId = nextId(db, "customer", size);
      // Upper bounds per customer; unused ids of a range are simply skipped.
      let identityId = nextId(db, "identity", size * 5);
      let md5Id = nextId(db, "md5identity", size * 2);
      let eventId = nextId(db, "event", size * 5);
      let memberId = nextId(db, "listMember", size * 2);
      let dealId = nextId(db, "deal", size * 2);
      let refundId = nextId(db, "refund", size * 2);
      for (let k = 0; k < size; k++, customerId++) {
        const i = offset + start + k;
        const [surname, surnamePy] = rnd.pick(SURNAMES);
        const [given, givenPy] = rnd.pick(GIVEN);
        const gender = rnd.chance(0.1) ? 0 : rnd.chance(0.55) ? 2 : 1;
        const created = now - rnd.int(1, 730) * DAY - rnd.int(0, DAY - 1);
        const updated = Math.min(now, created + rnd.int(0, 400) * DAY);
        const hasMobile = rnd.chance(0.9);
        const hasEmail = rnd.chance(0.6);
        const mobile = hasMobile ? `+86 ${rnd.pick(MOBILE_PREFIXES)}${String(i).padStart(8, "0").slice(-8)}` : null;
        const email = hasEmail ? `${surnamePy}.${givenPy}${i}@${rnd.pick(["example.cn", "mail.test", "qq.test"])}` : null;
        const [province, city, county] = rnd.pick(PLACES);
        const stage = rnd.chance(0.1) ? null : rnd.pick(STAGES);
        const source = rnd.pick(SOURCES);
        const name = rnd.chance(0.85) ? `${surname}${given}` : null;
        const nickName = rnd.chance(0.5) ? rnd.pick(NICKS) : null;
        const doc: Record<string, unknown> = { gender, country: "中国", province, city, county, source };
        if (name) doc.name = name;
        if (nickName) doc.nickName = nickName;
        if (mobile) {
          doc.mobile = mobile;
          doc.mobileVerified = rnd.chance(0.5);
        }
        if (email) {
          doc.email = email;
          doc.emailVerified = rnd.chance(0.3);
        }
        if (stage) doc.stage = stage;
        if (rnd.chance(0.5)) doc.birthday = `${rnd.int(1965, 2005)}-${String(rnd.int(1, 12)).padStart(2, "0")}-${String(rnd.int(1, 28)).padStart(2, "0")}`;
        if (rnd.chance(0.2)) doc.attr = { attr1: rnd.pick(["金卡", "银卡", "普通"]) };
        insCustomer.run(customerId, tenant, name, nickName, mobile, email, gender, stage, source, created, updated, JSON.stringify(doc));

        const identity = (type: string, value: string, label: string | null) => insIdentity.run(identityId++, tenant, customerId, type, value, label, created, created);
        if (mobile) {
          identity("mobile", mobile, null);
          insMd5.run(md5Id++, tenant, customerId, "common", "mobile", mobile, md5(mobile), created, created);
        }
        if (email) identity("email", email, null);
        if (rnd.chance(0.4)) {
          const openId = `o${hex(rnd, 12)}${i.toString(36)}`;
          identity("messenger", openId, nickName ?? name);
          if (rnd.chance(0.75)) identity("messenger-unionid", `u${hex(rnd, 12)}${i.toString(36)}`, null);
        }
        if (rnd.chance(0.2)) identity("crm-account", `CRM${String(100000 + i)}`, "CRM 会员号");
        if (rnd.chance(0.1)) insMd5.run(md5Id++, tenant, customerId, "marketplace", "marketplace-buyer", null, md5(`${tagKey}-buyer-${i}`), created, created);

        const events = rnd.int(0, 3);
        for (let e = 0; e < events; e++) {
          const date = now - rnd.int(0, 60 * 24 * 60) * 60_000;
          const id = eventId++;
          if (rnd.chance(0.25)) {
            const type = rnd.pick(CUSTOM_EVENTS);
            const props = type === "c_coupon_claim" ? { couponName: "满100减20", couponValue: 20.0, channel: "小程序" } : { roomName: "新品直播间", watchSeconds: rnd.int(30, 3600) };
            insEvent.run(id, tenant, customerId, type, date, date, `seed-${id}`, 2, JSON.stringify({ score: 2, source: "小程序", ...props }));
          } else {
            const [type, score] = rnd.pick(BUILT_IN_EVENTS);
            insEvent.run(id, tenant, customerId, type, date, date, `seed-${id}`, score, JSON.stringify({ score, source: source, targetId: `page-${rnd.int(1, 50)}`, targetName: "活动页" }));
          }
        }

        if (rnd.chance(0.15)) {
          const orders = rnd.int(1, 2);
          for (let o = 0; o < orders; o++) {
            orderSeq++;
            const orderNo = `SO${String(orderSeq).padStart(9, "0")}`;
            const dateOrder = now - rnd.int(0, 60 * 24) * 3_600_000;
            const lines = Array.from({ length: rnd.int(1, 3) }, (_, n) => {
              const [skuId, productName, category, price] = rnd.pick(PRODUCTS);
              const qty = rnd.int(1, 3);
              return { orderNo, lineId: String(n + 1), productName, productId: skuId.slice(0, 7), skuId, category, brandName: "贝果", qty, priceUnit: price, priceSubTotal: price * qty, priceSubPaid: price * qty };
            });
            const total = lines.reduce((s, l) => s + l.priceSubTotal, 0);
            const discount = rnd.chance(0.3) ? 10 : 0;
            const dealDoc = {
              orderNo, amountTotal: total, amountPaid: total - discount, amountDiscount: discount, ...(discount ? { couponCode: "WELCOME10", discountType: "coupon" } : {}),
              paymentTerm: rnd.pick(["微信支付", "支付宝", "银行卡"]), type: rnd.pick(["online", "offline"]), dateOrder: formatUtc(dateOrder),
              store: "贝果咖啡", salesChannel: rnd.pick(["小程序", "天猫", "门店"]), currency: "¥", contactName: name ?? nickName, shippingProvince: province, shippingCity: city, lines,
            };
            insDeal.run(dealId++, tenant, customerId, orderNo, dateOrder, "已付款", total - discount, dateOrder, dateOrder, JSON.stringify(dealDoc));
            if (rnd.chance(0.1)) {
              const thisRefund = refundId++;
              const line = lines[0]!;
              const refundLines = [{ customerId: String(customerId), skuId: line.skuId, orderNo, productId: line.productId, qty: line.qty, category: line.category, priceUnit: line.priceUnit, productName: line.productName, lineId: line.lineId, refundId: String(thisRefund), priceSubTotal: line.priceSubTotal }];
              // JSON ids inside refund lines are written as integers (the doc is parsed losslessly on read).
              const refundDoc = JSON.stringify({ dateRefund: formatUtc(dateOrder + DAY), refundTotal: line.priceSubTotal, reason: "不想要了", state: "部分退单", refundLines }).replace(/"(customerId|refundId)":"(\d+)"/g, '"$1":$2');
              insRefund.run(thisRefund, tenant, orderNo, customerId, dateOrder + DAY, dateOrder + DAY, refundDoc);
            }
          }
        }

        if (rnd.chance(0.25)) insMember.run(memberId++, tenant, rnd.pick(listIds), customerId, updated, updated);
        const tags = rnd.int(0, 2);
        for (let t = 0; t < tags; t++) insTag.run(customerId, rnd.pick(tagIds), tenant, updated);
      }
      for (const bulk of [insCustomer, insIdentity, insMd5, insEvent, insTag]) bulk.flush();
    })();
    if ((start / BATCH) % 20 === 19 || start + size >= count) log(`${envName}: ${start + size} / ${count} customers (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  customerStore(db).rebuildRankBlocks(tenant);
}
