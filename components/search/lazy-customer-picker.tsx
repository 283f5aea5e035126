"use client";
import { clientOnly } from "@/components/ui/client-only";

/**
 * The people search picker, loaded after the page's first paint: the pages that hold it next to a
 * list (a list's members, a tag's customers) are over their first-load target
 * (scripts/bench/console-first-load.ts), and the picker is needed only once staff start typing.
 */
export const LazyCustomerPicker = clientOnly(() => import("./customer-picker").then((m) => m.CustomerPicker));
