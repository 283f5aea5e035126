import { z } from "zod";

/**
 * What a segment is: conditions over the people index combined with all (AND) or any (OR). The
 * schema is the one check of a definition (the routes' zod schemas, the store's read): a condition
 * on a field not listed, a malformed value or a date outside 1900–2100 fails with the path of the
 * condition (`conditions.2.from`), so the editor shows the error beside it. No imports beyond zod:
 * the browser's editor uses the same field list.
 */

export const MAX_CONDITIONS = 20;
export const MAX_VALUES = 50;
export const MAX_ATTR_NUMBER = 100;

const text = (max: number) => z.string({ error: "must be text" }).trim().min(1, "is required").max(max, `at most ${max} characters`);
const values = (max: number) => z.array(text(max), { error: "must be a list" }).min(1, "choose at least one").max(MAX_VALUES, `at most ${MAX_VALUES} values`);

/** A day `YYYY-MM-DD` that exists, 1900-01-01 … 2100-12-31 (days run in UTC+8, §2). */
export const dayValue = z
  .string({ error: "must be a date" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((v) => {
    const [y = 0, m = 1, d = 1] = v.split("-").map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, "is not a day of the calendar")
  .refine((v) => v >= "1900-01-01" && v <= "2100-12-31", "must be between 1900-01-01 and 2100-12-31");

const days = z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").max(36_500, "at most 36500 days");
const amount = z.number({ error: "must be a number" }).finite("must be a number").min(-1e12, "is out of range").max(1e12, "is out of range");

export const TAG_OPS = ["any", "all", "none"] as const;
export const TEXT_OPS = ["is", "isNot", "empty", "notEmpty"] as const;
export const DATE_OPS = ["on", "before", "after", "between", "withinDays", "notWithinDays"] as const;
export const NUMBER_OPS = ["gte", "lte", "eq", "between"] as const;
export const ATTR_OPS = ["is", "contains", "empty", "notEmpty"] as const;
export const IDENTITY_OPS = ["any", "none"] as const;
export const LAST_ORDER_OPS = ["lte", "gte", "between", "never"] as const;

const tagCondition = z.strictObject({ field: z.literal("tags"), op: z.enum(TAG_OPS), values: values(64) });
const textCondition = z
  .strictObject({ field: z.enum(["stage", "source"]), op: z.enum(TEXT_OPS), values: values(128).optional() })
  .refine((c) => c.op === "empty" || c.op === "notEmpty" || (c.values?.length ?? 0) > 0, { message: "choose at least one", path: ["values"] });
const genderCondition = z.strictObject({
  field: z.literal("gender"),
  op: z.literal("is"),
  values: z.array(z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "must be 0, 1 or 2" })).min(1, "choose at least one").max(3),
});
const dateCondition = z
  .strictObject({ field: z.enum(["dateCreated", "lastUpdated"]), op: z.enum(DATE_OPS), from: dayValue.optional(), to: dayValue.optional(), days: days.optional() })
  .superRefine((c, ctx) => {
    const need = (key: "from" | "to" | "days") => {
      if (c[key] === undefined) ctx.addIssue({ code: "custom", message: "is required", path: [key] });
    };
    if (c.op === "on" || c.op === "after" || c.op === "between") need("from");
    if (c.op === "before" || c.op === "between") need("to");
    if (c.op === "withinDays" || c.op === "notWithinDays") need("days");
    if (c.op === "between" && c.from && c.to && c.from > c.to) ctx.addIssue({ code: "custom", message: "must not be after the end", path: ["from"] });
  });
const birthMonthCondition = z.strictObject({
  field: z.literal("birthMonth"),
  op: z.literal("in"),
  months: z.array(z.number({ error: "must be a month" }).int("must be a month 1–12").min(1, "must be a month 1–12").max(12, "must be a month 1–12")).min(1, "choose at least one").max(12),
});
const attrCondition = z
  .strictObject({
    field: z.literal("attr"),
    attr: z.string({ error: "must be attr1 … attr100" }).regex(/^attr([1-9]\d?|100)$/, `must be attr1 … attr${MAX_ATTR_NUMBER}`),
    op: z.enum(ATTR_OPS),
    value: text(255).optional(),
  })
  .refine((c) => c.op === "empty" || c.op === "notEmpty" || c.value !== undefined, { message: "is required", path: ["value"] });
const identityCondition = z.strictObject({ field: z.literal("identityType"), op: z.enum(IDENTITY_OPS), values: values(32) });
const numberCondition = z
  .strictObject({ field: z.enum(["orderCount", "orderAmount", "activityScore"]), op: z.enum(NUMBER_OPS), value: amount, to: amount.optional() })
  .superRefine((c, ctx) => {
    if (c.op === "between" && c.to === undefined) ctx.addIssue({ code: "custom", message: "is required", path: ["to"] });
    if (c.op === "between" && c.to !== undefined && c.value > c.to) ctx.addIssue({ code: "custom", message: "must not be above the upper bound", path: ["value"] });
  });
const lastOrderCondition = z
  .strictObject({ field: z.literal("daysSinceLastOrder"), op: z.enum(LAST_ORDER_OPS), value: days.optional(), to: days.optional() })
  .superRefine((c, ctx) => {
    if (c.op !== "never" && c.value === undefined) ctx.addIssue({ code: "custom", message: "is required", path: ["value"] });
    if (c.op === "between" && c.to === undefined) ctx.addIssue({ code: "custom", message: "is required", path: ["to"] });
    if (c.op === "between" && c.value !== undefined && c.to !== undefined && c.value > c.to) ctx.addIssue({ code: "custom", message: "must not be above the upper bound", path: ["value"] });
  });

export const SEGMENT_FIELDS = ["tags", "stage", "source", "gender", "dateCreated", "lastUpdated", "birthMonth", "attr", "identityType", "orderCount", "orderAmount", "activityScore", "daysSinceLastOrder"] as const;
export type SegmentField = (typeof SEGMENT_FIELDS)[number];

const byField: Record<SegmentField, z.ZodType> = {
  tags: tagCondition,
  stage: textCondition,
  source: textCondition,
  gender: genderCondition,
  dateCreated: dateCondition,
  lastUpdated: dateCondition,
  birthMonth: birthMonthCondition,
  attr: attrCondition,
  identityType: identityCondition,
  orderCount: numberCondition,
  orderAmount: numberCondition,
  activityScore: numberCondition,
  daysSinceLastOrder: lastOrderCondition,
};

export type Condition =
  | z.output<typeof tagCondition>
  | z.output<typeof textCondition>
  | z.output<typeof genderCondition>
  | z.output<typeof dateCondition>
  | z.output<typeof birthMonthCondition>
  | z.output<typeof attrCondition>
  | z.output<typeof identityCondition>
  | z.output<typeof numberCondition>
  | z.output<typeof lastOrderCondition>;

/**
 * One condition, checked by its `field` first: an unknown field is one error on `field` naming it
 * (a plain union would answer every branch's complaint).
 */
export const conditionSchema = z.unknown().transform((value, ctx): Condition => {
  const field = value && typeof value === "object" && !Array.isArray(value) ? (value as { field?: unknown }).field : undefined;
  if (typeof field !== "string" || !(SEGMENT_FIELDS as readonly string[]).includes(field)) {
    ctx.addIssue({ code: "custom", message: `unknown field ${JSON.stringify(typeof field === "string" ? field.slice(0, 40) : field ?? null)}; one of ${SEGMENT_FIELDS.join(", ")}`, path: ["field"] });
    return z.NEVER;
  }
  const parsed = byField[field as SegmentField].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  }
  return parsed.data as Condition;
});

export const definitionSchema = z.strictObject({
  match: z.enum(["all", "any"], { error: "must be all or any" }),
  conditions: z.array(conditionSchema, { error: "must be a list" }).max(MAX_CONDITIONS, `at most ${MAX_CONDITIONS} conditions`),
});

export type SegmentDefinition = z.output<typeof definitionSchema>;

/** The fields a definition uses, in order, once each (the preview's columns). */
export function fieldsOf(definition: SegmentDefinition): SegmentField[] {
  return [...new Set(definition.conditions.map((c) => c.field))];
}

/** A definition without conditions matches everyone: a sync asks first. */
export const matchesEveryone = (definition: SegmentDefinition): boolean => definition.conditions.length === 0;
