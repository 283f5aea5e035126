/**
 * Row generation of the seeder, run in a worker thread (node:worker_threads) so that one core
 * generates rows while the other inserts them. Deterministic: one seeded PRNG per tenant, consumed
 * in customer order, and ids counted up from ranges reserved by the main thread.
 *
 * This file is loaded by Node directly (type stripping), not through a bundler or tsx: it imports
 * only `node:` modules (types with `import type`) and uses only erasable TypeScript syntax.
 */
import { createHash } from "node:crypto";
import { isMainThread, workerData, type MessagePort } from "node:worker_threads";

/** What the worker needs to generate one tenant's customers. */
export type TenantPlan = {
  tenant: number;
  /** The sandbox clock's reading, epoch ms. */
  now: number;
  count: number;
  batch: number;
  /** Running number of the first customer (mobiles, emails and open ids embed it). */
  offset: number;
  /** Orders of the tenant before seeding (order numbers continue after them). */
  orderSeq: number;
  tagKey: string;
  tagIds: bigint[];
  listIds: bigint[];
  /** First id of each range reserved for this seed (see `ID_RANGE_PER_CUSTOMER`). */
  firstIds: Record<IdKind, bigint>;
  /**
   * An `observed` environment (sandbox/observed.ts): customers also hold some of the fields the real
   * platform returns beyond §2.1. Derived from the running number, so the PRNG sequence (and every
   * other seeded value) is the same in both profiles.
   */
  extraFields?: boolean;
};

const MEMBERSHIP_LEVELS = ["gold", "silver", "bronze"];

/** The real platform's extra customer fields of customer number `i` (the rest are unset). */
function extraFieldsOf(i: number): Record<string, unknown> {
  return {
    qq: i % 3 === 0 ? String(100000 + i) : null,
    weibo: null,
    acceptEmail: i % 2 === 0,
    acceptSMS: i % 4 === 0,
    externalId: `crm-${String(i).padStart(6, "0")}`,
    isAnonymous: false,
    membershipLevel: MEMBERSHIP_LEVELS[i % 3],
    tags: null,
  };
}

/** Upper bounds of rows per customer, for the id ranges reserved before generating. */
export const ID_RANGE_PER_CUSTOMER = { customer: 1, identity: 5, md5identity: 2, event: 3, listMember: 1, deal: 2, refund: 2 } as const;
export type IdKind = keyof typeof ID_RANGE_PER_CUSTOMER;

/** One batch of rows, each table as a flat list of column values (row after row), in INSERT column order. */
export type RowBatch = { customers: unknown[]; identities: unknown[]; md5s: unknown[]; events: unknown[]; deals: unknown[]; refunds: unknown[]; members: unknown[]; tags: unknown[] };

/** Shared counters between the main thread and the worker: batches posted, batches taken. */
export const POSTED = 0;
export const TAKEN = 1;
/** Batches the worker may run ahead of the inserts: keeps memory bounded. */
export const AHEAD = 2;

export type WorkerInput = { plan: TenantPlan; port: MessagePort; signal: Int32Array };
export type WorkerMessage = { batch: RowBatch } | { error: string };

const DAY = 86_400_000;

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

/** `n` pseudo-random hex digits. */
function hex(rnd: ReturnType<typeof prng>, n: number): string {
  let out = "";
  while (out.length < n) out += Math.floor(rnd.next() * 0x100000000).toString(16).padStart(8, "0");
  return out.slice(0, n);
}

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
/** As `formatUtc` of sandbox/clock.ts (this file cannot import it). */
const formatUtc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const SURNAMES = [["王", "wang"], ["李", "li"], ["张", "zhang"], ["刘", "liu"], ["陈", "chen"], ["杨", "yang"], ["黄", "huang"], ["赵", "zhao"], ["吴", "wu"], ["周", "zhou"], ["徐", "xu"], ["孙", "sun"], ["马", "ma"], ["朱", "zhu"], ["胡", "hu"], ["郭", "guo"], ["何", "he"], ["林", "lin"], ["罗", "luo"], ["高", "gao"]] as const;
const GIVEN = [["伟", "wei"], ["芳", "fang"], ["娜", "na"], ["敏", "min"], ["静", "jing"], ["丽", "li"], ["强", "qiang"], ["磊", "lei"], ["军", "jun"], ["洋", "yang"], ["勇", "yong"], ["艳", "yan"], ["杰", "jie"], ["娟", "juan"], ["涛", "tao"], ["明", "ming"], ["超", "chao"], ["秀英", "xiuying"], ["霞", "xia"], ["平", "ping"], ["婷婷", "tingting"], ["子涵", "zihan"], ["浩然", "haoran"], ["思琪", "siqi"]] as const;
const NICKS = ["小鱼儿", "阳光少年", "奶茶控", "追风", "木子", "晴天", "橙子", "Lucky", "喵小姐", "旅行者", "吃货一枚", "Kevin", "安静的猫"];
export const PLACES = [["上海", "上海市", "浦东新区"], ["北京", "北京市", "朝阳区"], ["广东", "广州市", "天河区"], ["广东", "深圳市", "南山区"], ["浙江", "杭州市", "西湖区"], ["江苏", "南京市", "鼓楼区"], ["四川", "成都市", "武侯区"], ["湖北", "武汉市", "洪山区"]] as const;
const STAGES = ["潜在客户", "意向客户", "首次购买", "重复购买", "忠诚客户"];
const SOURCES = ["微信公众号", "天猫旗舰店", "线下门店", "官网注册", "小程序", "抖音"];
const MOBILE_PREFIXES = ["138", "139", "136", "158", "186", "189", "177", "150"];
const BUILT_IN_EVENTS = [["open_page", 1], ["click_link", 2], ["submit_form", 5], ["messenger_follow", 3], ["messenger_message", 1]] as const;
const CUSTOM_EVENTS = ["c_coupon_claim", "c_live_watch"] as const;
const PRODUCTS = [["SKU-TEA-01", "龙井茶礼盒", "茶叶", 168], ["SKU-COF-02", "挂耳咖啡 20 包", "咖啡", 79], ["SKU-MUG-03", "陶瓷马克杯", "杯具", 59], ["SKU-SNK-04", "坚果大礼包", "零食", 129], ["SKU-JUI-05", "NFC 橙汁 6 瓶", "饮料", 88]] as const;

/** The tenant's rows, batch after batch (`plan.batch` customers each). */
export function* generateTenant(plan: TenantPlan): Generator<RowBatch> {
  const { now } = plan;
  const rnd = prng(plan.tenant % 2 ** 31);
  let orderSeq = plan.orderSeq;
  let customerId = plan.firstIds.customer;
  let identityId = plan.firstIds.identity;
  let md5Id = plan.firstIds.md5identity;
  let eventId = plan.firstIds.event;
  let memberId = plan.firstIds.listMember;
  let dealId = plan.firstIds.deal;
  let refundId = plan.firstIds.refund;
  for (let start = 0; start < plan.count; start += plan.batch) {
    const size = Math.min(plan.batch, plan.count - start);
    const out: RowBatch = { customers: [], identities: [], md5s: [], events: [], deals: [], refunds: [], members: [], tags: [] };
    for (let k = 0; k < size; k++, customerId++) {
      const i = plan.offset + start + k;
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
      if (plan.extraFields) Object.assign(doc, extraFieldsOf(i));
      out.customers.push(customerId, plan.tenant, name, nickName, mobile, email, gender, stage, source, created, updated, JSON.stringify(doc));

      const identity = (type: string, value: string, label: string | null) => out.identities.push(identityId++, plan.tenant, customerId, type, value, label, created, created);
      if (mobile) {
        identity("mobile", mobile, null);
        out.md5s.push(md5Id++, plan.tenant, customerId, "common", "mobile", mobile, md5(mobile), created, created);
      }
      if (email) identity("email", email, null);
      if (rnd.chance(0.4)) {
        const openId = `o${hex(rnd, 12)}${i.toString(36)}`;
        identity("messenger", openId, nickName ?? name);
        if (rnd.chance(0.75)) identity("messenger-unionid", `u${hex(rnd, 12)}${i.toString(36)}`, null);
      }
      if (rnd.chance(0.2)) identity("crm-account", `CRM${String(100000 + i)}`, "CRM 会员号");
      if (rnd.chance(0.1)) out.md5s.push(md5Id++, plan.tenant, customerId, "marketplace", "marketplace-buyer", null, md5(`${plan.tagKey}-buyer-${i}`), created, created);

      const events = rnd.int(0, 3);
      for (let e = 0; e < events; e++) {
        const date = now - rnd.int(0, 60 * 24 * 60) * 60_000;
        const id = eventId++;
        if (rnd.chance(0.25)) {
          const type = rnd.pick(CUSTOM_EVENTS);
          const props = type === "c_coupon_claim" ? { couponName: "满100减20", couponValue: 20.0, channel: "小程序" } : { roomName: "新品直播间", watchSeconds: rnd.int(30, 3600) };
          out.events.push(id, plan.tenant, customerId, type, date, date, `seed-${id}`, 2, JSON.stringify({ score: 2, source: "小程序", ...props }));
        } else {
          const [type, score] = rnd.pick(BUILT_IN_EVENTS);
          out.events.push(id, plan.tenant, customerId, type, date, date, `seed-${id}`, score, JSON.stringify({ score, source: source, targetId: `page-${rnd.int(1, 50)}`, targetName: "活动页" }));
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
          out.deals.push(dealId++, plan.tenant, customerId, orderNo, dateOrder, "已付款", total - discount, dateOrder, dateOrder, JSON.stringify(dealDoc));
          if (rnd.chance(0.1)) {
            const thisRefund = refundId++;
            const line = lines[0]!;
            const refundLines = [{ customerId: String(customerId), skuId: line.skuId, orderNo, productId: line.productId, qty: line.qty, category: line.category, priceUnit: line.priceUnit, productName: line.productName, lineId: line.lineId, refundId: String(thisRefund), priceSubTotal: line.priceSubTotal }];
            // JSON ids inside refund lines are written as integers (the doc is parsed losslessly on read).
            const refundDoc = JSON.stringify({ dateRefund: formatUtc(dateOrder + DAY), refundTotal: line.priceSubTotal, reason: "不想要了", state: "部分退单", refundLines }).replace(/"(customerId|refundId)":"(\d+)"/g, '"$1":$2');
            out.refunds.push(thisRefund, plan.tenant, orderNo, customerId, dateOrder + DAY, dateOrder + DAY, refundDoc);
          }
        }
      }

      if (rnd.chance(0.25)) out.members.push(memberId++, plan.tenant, rnd.pick(plan.listIds), customerId, updated, updated);
      const tags = rnd.int(0, 2);
      for (let t = 0; t < tags; t++) out.tags.push(customerId, rnd.pick(plan.tagIds), plan.tenant, updated);
    }
    yield out;
  }
}

/** The worker: generates the batches and posts them, at most `AHEAD` batches before the inserts. */
function runWorker({ plan, port, signal }: WorkerInput): void {
  let posted = 0;
  const post = (message: WorkerMessage) => {
    port.postMessage(message);
    Atomics.store(signal, POSTED, ++posted);
    Atomics.notify(signal, POSTED);
  };
  try {
    for (const batch of generateTenant(plan)) {
      for (let taken = Atomics.load(signal, TAKEN); posted - taken >= AHEAD; taken = Atomics.load(signal, TAKEN)) Atomics.wait(signal, TAKEN, taken);
      post({ batch });
    }
  } catch (error) {
    post({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

if (!isMainThread && (workerData as WorkerInput | undefined)?.plan) runWorker(workerData as WorkerInput);
