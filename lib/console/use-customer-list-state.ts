"use client";
import { parseListState, serializeListState } from "./customer-list-state";
import { useUrlState } from "@/lib/hooks/use-url-state";

/** The customers list state, synced to the URL with replace (see `useUrlState`). */
export function useCustomerListState() {
  return useUrlState(parseListState, serializeListState);
}
