import { describe, expect, it } from "vitest";
import type { Translate } from "@/lib/i18n/format";
import { translate } from "@/lib/i18n/messages";
import { orderStory, platformStateLabel, recordedBadge, storySentence } from "./order-story";
import type { RefundRecord } from "./refund-record";

const t: Translate = (key, values) => translate("en", key, values);
const money = (v: unknown) => (v === undefined ? "" : `¥${String(v)}`);
const refund = (status: RefundRecord["status"], refundState = "部分退单"): RefundRecord => ({ id: "r1", orderNo: "A-1", status, refundState, refundTotal: "30.00", lineIds: ["1"], recordedAt: 1 });

/** The badges and sentence a reader gets, per step. */
function told(state: string, records: RefundRecord[]) {
  const story = orderStory(state, records);
  return { badges: [platformStateLabel(story.platform, t), recordedBadge(story, t)].filter(Boolean), sentence: storySentence(story, t, money) };
}

describe("an order's state story: badges and sentence agree in every order of refund, cancel, delete refund", () => {
  it("refund, then cancel: Cancelled and Partly refunded, and the sentence says cancelled", () => {
    expect(told("已付款", [refund("recorded")])).toEqual({ badges: ["Paid", "Partly refunded"], sentence: expect.stringContaining("“Paid”") });
    const after = told("已取消", [refund("recorded")]);
    expect(after.badges).toEqual(["Cancelled", "Partly refunded"]);
    expect(after.sentence).toContain("“Cancelled”");
    expect(after.sentence).not.toMatch(/paid/i);
    expect(after.sentence).toContain("¥30.00");
  });

  it("cancel, then refund: the same story", () => {
    expect(told("已取消", []).badges).toEqual(["Cancelled"]);
    expect(told("已取消", [refund("recorded", "完全退单")])).toEqual({ badges: ["Cancelled", "Refunded"], sentence: expect.stringContaining("“Cancelled”") });
  });

  it("a deleted refund leaves the platform's state alone, with no sentence", () => {
    expect(told("已付款", [refund("deleted")])).toEqual({ badges: ["Paid"], sentence: undefined });
    expect(told("已取消", [refund("deleted")])).toEqual({ badges: ["Cancelled"], sentence: undefined });
  });

  it("a refund the platform's own state reports is one badge, not two", () => {
    expect(told("部分退单", [refund("recorded")])).toEqual({ badges: ["Partly refunded"], sentence: undefined });
  });

  it("says the same in Chinese", () => {
    const zh: Translate = (key, values) => translate("zh-CN", key, values);
    const story = orderStory("已取消", [refund("recorded")]);
    expect(storySentence(story, zh, money)).toContain("已取消");
  });
});
