"use client";
import dynamic from "next/dynamic";

/**
 * The people search picker, loaded after the page's first paint: the pages that hold it next to a
 * list (a list's members, a tag's customers) are at their 180 kB first-load budget
 * (scripts/bench/console-first-load.ts), and the picker is needed only once staff start typing.
 */
export const LazyCustomerPicker = dynamic(() => import("./customer-picker").then((m) => m.CustomerPicker), { ssr: false });
