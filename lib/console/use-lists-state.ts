"use client";
import { useUrlState } from "@/lib/hooks/use-url-state";
import { parseMembersState, serializeMembersState } from "./list-members-state";
import { parseListsState, serializeListsState } from "./lists-state";

/** The lists page state, synced to the URL with replace (see `useUrlState`). */
export function useListsState() {
  return useUrlState(parseListsState, serializeListsState);
}

/** The members view state of one list, synced to the URL with replace. */
export function useMembersState() {
  return useUrlState(parseMembersState, serializeMembersState);
}
