import type { activityMessages } from "@/lib/activity/messages";
import type { customersMessages } from "@/lib/customers/messages";
import type { dashboardMessages } from "@/lib/dashboard/messages";
import type { eventsMessages } from "@/lib/events/messages";
import type { listsMessages } from "@/lib/lists/messages";
import type { mediaMessages } from "@/lib/media/messages";
import type { ordersMessages } from "@/lib/orders/messages";
import type { preferencesMessages } from "@/lib/preferences/messages";
import type { searchMessages } from "@/lib/search/messages";
import type { shellMessages } from "@/lib/shell/messages";
import type { shopsMessages } from "@/lib/shops/messages";
import type { tagsMessages } from "@/lib/tags/messages";
import type { tasksMessages } from "@/lib/tasks/messages";
import type { CompiledMessage } from "./icu";

/**
 * The names of the console's strings, as types only: the formatter (format.ts) and the dictionary
 * (messages.ts) both need them, and the dictionary needs the formatter, so the names sit below both.
 * A feature missing here fails messages.ts's check that every feature is joined.
 */
export type FeatureMessages =
  | typeof shellMessages
  | typeof customersMessages
  | typeof listsMessages
  | typeof tagsMessages
  | typeof ordersMessages
  | typeof eventsMessages
  | typeof activityMessages
  | typeof dashboardMessages
  | typeof shopsMessages
  | typeof mediaMessages
  | typeof searchMessages
  | typeof preferencesMessages
  | typeof tasksMessages;

type KeysOf<F> = F extends { en: infer E } ? keyof E : never;
export type MessageKey = KeysOf<FeatureMessages>;
/** One language's dictionary as the browser receives it: every message compiled (compile.ts). */
export type Messages = Record<MessageKey, CompiledMessage>;
