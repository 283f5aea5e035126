import { defineFeatureMessages } from "@/lib/i18n/feature-messages";

/** The console's frame: app, navigation, language, sign-in prompts, errors, settings; and the words every page shares (any, yes, no). */
export const shellMessages = defineFeatureMessages(
  {
    "app.name": "Engage Console",

    "shell.skipToContent": "Skip to main content",
    "shell.mainNav": "Main",
    "shell.tenant": "Tenant",
    "shell.user": "Signed in as",
    "shell.loadingAccount": "Loading account…",
    "shell.accountUnavailable": "Account unavailable",

    "nav.customers": "Customers",
    "nav.lists": "Lists",
    "nav.tags": "Tags",
    "nav.orders": "Orders",
    "nav.settings": "Settings",

    "language.label": "Language",
    "language.en": "English",
    "language.zh-CN": "简体中文",

    "reauth.title": "Authorize again",
    "reauth.loop": "The console could not confirm your sign-in with the platform. Authorize again; if this keeps happening, an administrator may need to reinstall the app from the marketplace.",
    "reauth.unsaved": "Your sign-in has ended. Authorizing again leaves this page: copy any unsaved changes first.",
    "reauth.action": "Authorize again",
    "reauth.dismiss": "Not now",
    "reauth.installation": "The platform no longer accepts this installation's authorization, so data cannot be loaded or saved. Authorize again to continue.",

    "toast.region": "Notifications",
    "toast.dismiss": "Dismiss",

    "error.title": "Something went wrong",
    "error.body": "This page could not be shown. Your data is unchanged.",
    "error.retry": "Try again",
    "error.requestId": "Request id: {id}",
    "error.network": "The console cannot reach its server. Check your connection and try again.",
    "error.upstream": "The platform did not answer in time. Try again in a moment.",
    "error.rateLimited": "The platform is receiving too many requests. Try again in a moment.",
    "error.notFound": "Not found.",
    "error.generic": "The request failed: {message}",

    "coming.title": "{section}: coming soon",
    "coming.body": "This part of the console is still being built. Customers and Settings are ready to use.",
    "coming.goCustomers": "Go to Customers",

    "settings.title": "Settings",
    "settings.account": "Account",
    "settings.tenantName": "Tenant name",
    "settings.tenantId": "Tenant id",
    "settings.userName": "User",
    "settings.userId": "User id",
    "settings.environment": "Environment (openAppId)",
    "settings.language": "Language",
    "settings.languageHelp": "Used for this console in this browser.",
    "settings.time": "Time zone",
    "settings.timeHelp": "Times are shown in UTC+8, the platform's home time zone. Point at a time to see it in UTC. Times you type in filters are UTC+8 too.",

    "any": "Any",

    "yes": "Yes",

    "no": "No",

    "nav.events": "Events",
  },
  {
    "app.name": "Engage 控制台",

    "shell.skipToContent": "跳到主要内容",
    "shell.mainNav": "主导航",
    "shell.tenant": "租户",
    "shell.user": "当前用户",
    "shell.loadingAccount": "正在加载账户…",
    "shell.accountUnavailable": "无法获取账户信息",

    "nav.customers": "客户",
    "nav.lists": "客户列表",
    "nav.tags": "标签",
    "nav.orders": "订单",
    "nav.settings": "设置",

    "language.label": "语言",
    "language.en": "English",
    "language.zh-CN": "简体中文",

    "reauth.title": "重新授权",
    "reauth.loop": "控制台无法向平台确认你的登录状态。请重新授权；如果问题持续出现，可能需要管理员从应用市场重新安装本应用。",
    "reauth.unsaved": "你的登录已失效。重新授权会离开此页面：请先复制尚未保存的修改。",
    "reauth.action": "重新授权",
    "reauth.dismiss": "暂不",
    "reauth.installation": "平台已不再接受此安装的授权，因此无法加载或保存数据。请重新授权后继续。",

    "toast.region": "通知",
    "toast.dismiss": "关闭",

    "error.title": "出错了",
    "error.body": "此页面无法显示。你的数据没有改动。",
    "error.retry": "重试",
    "error.requestId": "请求编号：{id}",
    "error.network": "控制台无法连接服务器。请检查网络后重试。",
    "error.upstream": "平台未能及时响应。请稍后重试。",
    "error.rateLimited": "平台当前请求过多。请稍后重试。",
    "error.notFound": "未找到。",
    "error.generic": "请求失败：{message}",

    "coming.title": "{section}：即将推出",
    "coming.body": "控制台的这一部分仍在建设中。“客户”和“设置”现在即可使用。",
    "coming.goCustomers": "前往客户",

    "settings.title": "设置",
    "settings.account": "账户",
    "settings.tenantName": "租户名称",
    "settings.tenantId": "租户 ID",
    "settings.userName": "用户",
    "settings.userId": "用户 ID",
    "settings.environment": "环境（openAppId）",
    "settings.language": "语言",
    "settings.languageHelp": "仅用于此浏览器中的控制台。",
    "settings.time": "时区",
    "settings.timeHelp": "时间以平台所在时区 UTC+8 显示。将鼠标指向时间可查看 UTC 时间。筛选中输入的时间同样按 UTC+8 理解。",

    "any": "不限",

    "yes": "是",

    "no": "否",

    "nav.events": "事件",
  },
);
