"use client";
import { useUrlState } from "@/lib/hooks/use-url-state";
import { parseTagsState, serializeTagsState } from "./tags-state";

/** The tags page state, synced to the URL with replace (see `useUrlState`). */
export function useTagsState() {
  return useUrlState(parseTagsState, serializeTagsState);
}
