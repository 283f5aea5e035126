"use client";
import type { ComponentType } from "react";
import type { ParserMap } from "@/lib/ui/url-parsers";
import type { ListDefinition } from "@/lib/ui/list-state";
import type { ViewList } from "@/lib/views/view-rules";
import { clientOnly } from "@/components/ui/client-only";

type Props<P extends ParserMap, S> = { list: ViewList; definition: ListDefinition<P, S>; state: S; onApply: (state: S) => void };

// The views menu and its dialogs load after the list itself: they are not needed for the first paint.
const Loaded = clientOnly(() => import("./saved-views").then((m) => m.SavedViews as ComponentType<Props<ParserMap, unknown>>), {
  loading: () => <div className="h-9" aria-hidden="true" />,
});

/** `SavedViews` (saved-views.tsx), its code kept out of the list page's first load. */
export function LazySavedViews<P extends ParserMap, S>(props: Props<P, S>) {
  return <Loaded {...(props as unknown as Props<ParserMap, unknown>)} />;
}
