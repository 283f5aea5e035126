/**
 * The Activity page's words in the console's two languages (DESIGN.md §5). Kept here until the
 * console's dictionary (lib/i18n/messages.ts, `pickLocale`) is on main; then these move there.
 */
export type ActivityLocale = "en" | "zh-CN";

export const activityMessages = {
  en: {
    title: "Activity",
    intro: "Changes the platform reported to Engage Console through webhooks, newest first. Times are in UTC+8.",
    empty: "No webhook deliveries yet. When customers, orders, lists or tags change in the platform, they appear here.",
    caption: "Latest webhook deliveries, newest first",
    received: "Received",
    event: "Event",
    changed: "What changed",
    occurred: "Occurred",
    verifiedBy: "Verified by",
    oneNew: "1 new delivery received.",
    manyNew: "{n} new deliveries received.",
    modes: { secret: "Signature", basic: "Basic", oauth2: "OAuth2", none: "None" },
  },
  "zh-CN": {
    title: "动态",
    intro: "平台通过 Webhook 通知 Engage Console 的变更，最新的在前。时间为 UTC+8。",
    empty: "还没有收到 Webhook。平台中的客户、订单、列表或标签发生变更后，会显示在这里。",
    caption: "最近收到的 Webhook，最新的在前",
    received: "接收时间",
    event: "事件",
    changed: "变更对象",
    occurred: "发生时间",
    verifiedBy: "验证方式",
    oneNew: "收到 1 条新通知。",
    manyNew: "收到 {n} 条新通知。",
    modes: { secret: "签名", basic: "Basic", oauth2: "OAuth2", none: "无" },
  },
} as const;

/** `?lang=` from the platform (or the console's `ec_locale` choice): Chinese for any `zh…` tag, else English. */
export function activityLocale(...tags: Array<string | undefined | null>): ActivityLocale {
  for (const tag of tags) {
    const lower = tag?.trim().toLowerCase();
    if (!lower) continue;
    if (lower === "zh" || lower.startsWith("zh-cn") || lower.startsWith("zh-hans") || lower === "zh-sg") return "zh-CN";
    if (lower === "en" || lower.startsWith("en-")) return "en";
  }
  return "en";
}
