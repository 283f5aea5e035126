import { defineFeatureMessages } from "@/lib/i18n/feature-messages";

/** The Activity page's strings: the webhook deliveries the platform sent (§5.5, §6). */
export const activityMessages = defineFeatureMessages(
  {
    "activity.title": "Activity",
    "activity.intro": "Changes the platform reported to Engage Console through webhooks, newest first. Times are in UTC+8.",
    "activity.empty": "No webhook deliveries yet. When customers, orders, lists or tags change in the platform, they appear here.",
    "activity.caption": "Latest webhook deliveries, newest first",
    "activity.received": "Received",
    "activity.event": "Event",
    "activity.changed": "What changed",
    "activity.occurred": "Occurred",
    "activity.verifiedBy": "Verified by",
    "activity.oneNew": "1 new delivery received.",
    "activity.manyNew": "{n, plural, one {# new delivery received.} other {# new deliveries received.}}",
    "activity.mode.secret": "Signature",
    "activity.mode.basic": "Basic",
    "activity.mode.oauth2": "OAuth2",
    "activity.mode.none": "None",
  },
  {
    "activity.title": "动态",
    "activity.intro": "平台通过 Webhook 通知 Engage Console 的变更，最新的在前。时间为 UTC+8。",
    "activity.empty": "还没有收到 Webhook。平台中的客户、订单、列表或标签发生变更后，会显示在这里。",
    "activity.caption": "最近收到的 Webhook，最新的在前",
    "activity.received": "接收时间",
    "activity.event": "事件",
    "activity.changed": "变更对象",
    "activity.occurred": "发生时间",
    "activity.verifiedBy": "验证方式",
    "activity.oneNew": "收到 1 条新通知。",
    "activity.manyNew": "收到 {n} 条新通知。",
    "activity.mode.secret": "签名",
    "activity.mode.basic": "Basic",
    "activity.mode.oauth2": "OAuth2",
    "activity.mode.none": "无",
  },
);
