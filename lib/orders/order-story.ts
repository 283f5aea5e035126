import type { Translate } from "@/lib/i18n/format";
import { orderStateView, stateMessageKeys, type OrderStateView } from "./order-states";
import { standingRefunds, type RefundRecord } from "./refund-record";

/**
 * What an order's page says about its state, one story whatever the order of refund, cancel and
 * delete refund: the platform's state (§3, read by detail-by-order-number) is the first badge; a
 * refund this console recorded that the platform's state does not show (§4.2 has no read of
 * refunds) is a second badge; and the sentence names exactly those two, the platform's state by the
 * same label as its badge (never "paid" for a cancelled order).
 */
export type OrderStory = {
  platform: OrderStateView;
  /** A standing refund recorded here, when the platform's own state is not a refund. */
  recorded?: { kind: "full" | "partial"; amount: string | undefined };
};

export function orderStory(state: unknown, records: readonly RefundRecord[] | undefined): OrderStory {
  const platform = orderStateView(state);
  const standing = standingRefunds(records);
  // The platform's refund state already says it: a second badge would repeat it.
  if (standing.length === 0 || platform.kind === "refundFull" || platform.kind === "refundPartial") return { platform };
  const newest = [...standing].sort((a, b) => b.recordedAt - a.recordedAt)[0]!;
  return { platform, recorded: { kind: standing.some((r) => r.refundState === "完全退单") ? "full" : "partial", amount: newest.refundTotal } };
}

/** The platform state's label, as its badge shows it. */
export function platformStateLabel(view: OrderStateView, t: Translate): string {
  if (view.kind === "none") return t("orders.state.none");
  if (view.kind === "unknown") return view.raw;
  return t(stateMessageKeys(view.kind).label);
}

/** The recorded refund's badge. */
export const recordedBadge = (story: OrderStory, t: Translate) =>
  story.recorded ? (story.recorded.kind === "full" ? t("orders.refunds.badgeFull") : t("orders.refunds.badgePartial")) : undefined;

/** The sentence under the badges when a recorded refund stands beside the platform's state. */
export function storySentence(story: OrderStory, t: Translate, money: (value: unknown) => string): string | undefined {
  if (!story.recorded) return undefined;
  return t("orders.refunds.stateMeaning", { state: platformStateLabel(story.platform, t), amount: money(story.recorded.amount) || "—" });
}
