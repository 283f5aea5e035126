import { z } from "zod";
import { LIMITS } from "./limits";
import { decimal, id, intParam, outId, outInt, outText, outTime, text, textOrNumber, utcBodyTime } from "./schema-helpers";

/**
 * Schemas of the platform's resources (§2): what requests carry and what responses return.
 * Response schemas are loose (unknown fields pass through: the platform may add fields) and every
 * field but the record id is nullish (§2: absent or empty fields come back as `null`). Request
 * schemas of fixed shapes are strict, so a typo is a clear 422 rather than a silently dropped field.
 */

/** When a record was created and last changed (§2: UTC times). */
const stamps = { dateCreated: outTime, lastUpdated: outTime };

// ── §2.1 Customer ────────────────────────────────────────────────────────────────────────────────

/** Customer fields an application may write (§2.1 minus the read-only ones). */
export const customerWrite = z.strictObject({
  name: text().nullish(),
  img: text().nullish(),
  gender: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "must be 0, 1 or 2" }).nullish(),
  mobile: text().nullish(),
  mobileVerified: z.boolean().nullish(),
  email: text().nullish(),
  emailVerified: z.boolean().nullish(),
  birthday: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD").nullish(),
  messenger: text().nullish(),
  nickName: text().nullish(),
  country: text().nullish(),
  province: text().nullish(),
  city: text().nullish(),
  county: text().nullish(),
  homeAddress: text(LIMITS.address).nullish(),
  officeAddress: text(LIMITS.address).nullish(),
  stage: text().nullish(),
  source: text().nullish(),
  contentName: text().nullish(),
  company: text().nullish(),
  title: text().nullish(),
  industry: text().nullish(),
  employeeNumber: intParam(0).nullish(),
  annualRevenue: decimal.nullish(),
  website: text().nullish(),
  telephone: text().nullish(),
  isEmployee: z.boolean().nullish(),
  campaignId: text().nullish(),
  campaignName: text().nullish(),
  remark: text().nullish(),
  attr: z.record(z.string().regex(/^attr\d+$/, "custom attributes are named attr1, attr2, …"), z.unknown()).nullish(),
});
export type CustomerWrite = z.output<typeof customerWrite>;

export const customer = z.looseObject({
  id,
  displayName: outText,
  name: outText,
  img: outText,
  gender: outInt,
  mobile: outText,
  mobileVerified: z.boolean().nullish(),
  email: outText,
  emailVerified: z.boolean().nullish(),
  birthday: outText,
  messenger: outText,
  im: outText,
  nickName: outText,
  country: outText,
  province: outText,
  city: outText,
  county: outText,
  homeAddress: outText,
  officeAddress: outText,
  stage: outText,
  dateJoin: outTime,
  source: outText,
  contentName: outText,
  company: outText,
  title: outText,
  industry: outText,
  employeeNumber: outInt,
  annualRevenue: decimal.nullish(),
  website: outText,
  telephone: outText,
  ownerId: outId,
  ownerName: outText,
  isMember: z.unknown().optional(),
  isEmployee: z.boolean().nullish(),
  campaignId: outText,
  campaignName: outText,
  lastUpdated: outTime,
  remark: outText,
  dateCreated: outTime,
  attr: z.record(z.string(), z.unknown()).nullish(),
});
export type Customer = z.output<typeof customer>;

// ── §2.2 Identities ──────────────────────────────────────────────────────────────────────────────

/** §2.2 / §8: an identity's type and value, both required, within their lengths. */
export const identityFields = {
  identityType: text(LIMITS.identityType).min(1, "is required"),
  identityValue: text(LIMITS.identityValue).min(1, "is required"),
};

export const identityInput = z.strictObject({ ...identityFields, identityName: text(LIMITS.identityName).nullish() });

export const identity = z.looseObject({
  customerId: outId,
  identityType: outText,
  identityValue: outText,
  identityName: outText,
});

export const md5Identity = z.looseObject({
  id: outId,
  dateCreated: outTime,
  lastUpdated: outTime,
  md5type: outText,
  value: outText,
  type: outText,
  customerId: outId,
  customerIdStr: outText,
  md5value: outText,
});

export const customerStatistics = z.looseObject({
  id: outId,
  customerId: outId,
  firstOrderDate: outTime,
  lastOrderDate: outTime,
  lastOrderDays: outInt,
  lastUpdated: outTime,
  latest30daysScore: decimal.nullish(),
  orderAMT: decimal.nullish(),
  orderAMTA: decimal.nullish(),
  orderAPCT: decimal.nullish(),
  orderTotal: decimal.nullish(),
  orderTotalAmount: decimal.nullish(),
  totalScore: decimal.nullish(),
});

// ── §2.3 Events ──────────────────────────────────────────────────────────────────────────────────

/** §2.3 / §8: event type id ≤ 32 ASCII characters; custom ids start with `c_`. */
const eventType = z
  .string({ error: "must be a string" })
  .min(1, "is required")
  .max(LIMITS.eventId, `at most ${LIMITS.eventId} characters`)
  .regex(/^[\x20-\x7e]+$/, "must be ASCII");

/** Built-in event fields (§2.3); custom event properties pass through (loose). */
export const eventFields = {
  event: eventType,
  targetId: text(LIMITS.eventTarget).nullish(),
  targetName: text(LIMITS.eventTarget).nullish(),
  date: utcBodyTime.nullish(),
  source: text().nullish(),
  contentName: text().nullish(),
  score: intParam().nullish(),
  tag: text(LIMITS.eventTarget).nullish(),
  campaign: text().nullish(),
  campaignName: text().nullish(),
  referrer: text().nullish(),
  // §8 "1024 bytes or characters": characters here (the console's form holds it to bytes).
  summary: text(LIMITS.eventSummaryBytes).nullish(),
  externalId: text().nullish(),
  externalIdGenerator: z.enum(["md5", "date", ""]).nullish(),
};

export const customerEvent = z.looseObject({
  id,
  customerId: outId,
  event: outText,
  targetId: outText,
  targetName: outText,
  date: outTime,
  source: outText,
  contentName: outText,
  score: outInt,
  tag: outText,
  campaign: outText,
  campaignName: outText,
  referrer: outText,
  summary: outText,
  externalId: textOrNumber.nullish(),
  lastUpdated: outTime,
});

// ── §2.4 Orders ──────────────────────────────────────────────────────────────────────────────────

/** Order lines: required `lineId`, `productName`, `qty` (§4.2); custom line fields pass through. */
export const orderLineInput = z.looseObject({
  orderNo: text().nullish(),
  lineId: text().min(1, "is required"),
  discountType: text().nullish(),
  counponCode: text().nullish(),
  productName: text().min(1, "is required"),
  productId: text().nullish(),
  skuId: text().nullish(),
  brandName: text().nullish(),
  category: text().nullish(),
  qty: intParam(),
  priceUnit: decimal.nullish(),
  priceSubTotal: decimal.nullish(),
  priceSubPaid: decimal.nullish(),
});

/** Order header fields (§2.4); custom header fields pass through. */
export const orderFields = {
  customerId: id.optional(),
  orderNo: text().min(1, "is required"),
  amountTotal: decimal.nullish(),
  amountPaid: decimal,
  amountDiscount: decimal.nullish(),
  discountType: text().nullish(),
  counponCode: text().nullish(),
  groupId: text().nullish(),
  paymentTerm: text().nullish(),
  paymentNo: text().nullish(),
  type: text().nullish(),
  dateOrder: utcBodyTime,
  store: text().nullish(),
  salesChannel: text().nullish(),
  shippingMethod: text().nullish(),
  contactName: text().nullish(),
  contactTel: text().nullish(),
  zipcode: text().nullish(),
  shippingProvince: text().nullish(),
  shippingCity: text().nullish(),
  shippingCounty: text().nullish(),
  shippingStreet: text().nullish(),
  shippingAddress: text().nullish(),
  buyerMessage: text().nullish(),
  remark: text().nullish(),
  campaign: text().nullish(),
  merchantPoint: intParam().nullish(),
  currency: text().nullish(),
};

export const orderLine = z.looseObject({
  orderNo: outText,
  lineId: outText,
  discountType: outText,
  counponCode: outText,
  couponCode: outText,
  productName: outText,
  productId: outText,
  skuId: outText,
  brandName: outText,
  category: outText,
  qty: outInt,
  priceUnit: decimal.nullish(),
  priceSubTotal: decimal.nullish(),
  priceSubPaid: decimal.nullish(),
});

export const order = z.looseObject({
  id: outId,
  customerId: outId,
  customerIdStr: outText,
  orderNo: outText,
  amountTotal: decimal.nullish(),
  amountPaid: decimal.nullish(),
  amountDiscount: decimal.nullish(),
  discountType: outText,
  couponCode: outText,
  counponCode: outText,
  groupId: outText,
  paymentTerm: outText,
  paymentNo: outText,
  type: outText,
  dateOrder: outTime,
  store: outText,
  salesChannel: outText,
  shippingMethod: outText,
  contactName: outText,
  contactTel: outText,
  zipcode: outText,
  shippingProvince: outText,
  shippingCity: outText,
  shippingCounty: outText,
  shippingStreet: outText,
  shippingAddress: outText,
  buyerMessage: outText,
  remark: outText,
  campaign: outText,
  merchantPoint: outInt,
  currency: outText,
  state: outText,
  dateCreated: outTime,
  lastUpdated: outTime,
  lines: z.array(orderLine).nullish(),
});
export type Order = z.output<typeof order>;

/** A refunded order line: the line's own fields, its customer and refund. */
export const refundLine = orderLine
  .pick({ orderNo: true, lineId: true, productName: true, productId: true, skuId: true, category: true, qty: true, priceUnit: true, priceSubTotal: true })
  .extend({ customerId: outId, refundId: outId });

export const refund = z.looseObject({
  id: outId,
  dateRefund: outTime,
  ...stamps,
  orderNo: outText,
  refundTotal: decimal.nullish(),
  customerId: outId,
  reason: outText,
  state: outText,
  refundLines: z.array(refundLine).nullish(),
});

// ── §2.5 Lists ───────────────────────────────────────────────────────────────────────────────────

export const list = z.looseObject({ id, name: outText, ...stamps });
export type List = z.output<typeof list>;

export const listMember = z.looseObject({ id: outId, listId: outId, customerId: outId, ...stamps });
export type ListMember = z.output<typeof listMember>;

export const listMemberInput = z.strictObject({ customerId: id, listId: id });

// ── §2.6 Tags ────────────────────────────────────────────────────────────────────────────────────

export const tagDimension = z.looseObject({ id: outId, dimensionKey: outText, name: outText, ...stamps });
export type TagDimension = z.output<typeof tagDimension>;

export const tag = z.looseObject({ id, name: outText, dimension: outText, ...stamps });
export type Tag = z.output<typeof tag>;

// ── §2.8 Shops ───────────────────────────────────────────────────────────────────────────────────

export const shop = z.looseObject({
  id: outId,
  sid: outText,
  branchName: outText,
  shopName: outText,
  ownerId: outId,
  ...stamps,
  meta: outText,
  messengerAppid: outText,
  shopStatus: z.unknown().optional(),
  refuseReason: outText,
  ownerName: outText,
  messengerAccount: outText,
  poiId: outText,
  shopInfoAll: outText,
  businessName: outText,
  remark: outText,
});

export const shopGroup = z.looseObject({ id: outId, creatorId: outId, creatorName: outText, name: outText, remark: outText, ...stamps });

/** §4.8: the `business.base_info` object that `shopInfoAll` serializes. */
export const shopBaseInfo = z.looseObject({
  sid: text().min(1, "is required"),
  telephone: text().min(1, "is required"),
  recommend: text().nullish(),
  introduction: text().nullish(),
  photo_list: z.array(z.looseObject({ photo_url: text() })).nullish(),
  open_time: text().nullish(),
  avg_price: decimal.nullish(),
  business_name: text().min(1, "is required"),
  branch_name: text().min(1, "is required"),
  province: text().min(1, "is required"),
  city: text().min(1, "is required"),
  district: text().min(1, "is required"),
  address: text().min(1, "is required"),
  categories: z.array(text()).min(1, "is required"),
  longitude: decimal,
  latitude: decimal,
  offset_type: intParam().nullish(),
  special: text().nullish(),
});

/**
 * §4.8: `shopInfoAll` is a string of serialized JSON `{business: {base_info}}`. Accepted as that
 * string (checked) or as the object (serialized here), so the console can send a plain form.
 */
export const shopInfoAll = z
  .preprocess(
    (value) => (value !== null && typeof value === "object" ? JSON.stringify(value) : value),
    z.string({ error: "must be the serialized JSON of {business: {base_info}}" }).superRefine((value, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be valid JSON" });
        return;
      }
      const check = z.object({ business: z.object({ base_info: shopBaseInfo }) }).safeParse(parsed);
      for (const issue of check.success ? [] : check.error.issues) {
        ctx.addIssue({ code: "custom", message: `${issue.path.join(".")}: ${issue.message}` });
      }
    }),
  )
  .meta({ type: "string", description: "serialized JSON of {business: {base_info}} (§4.8)" });
