"use client";
import { useUrlState } from "@/lib/hooks/use-url-state";
import { parseMd5Lookup, serializeMd5Lookup } from "./md5-lookup";

/** The MD5 lookup page's `?md5type=&md5value=`, synced to the URL with replace. */
export function useMd5LookupState() {
  return useUrlState(parseMd5Lookup, serializeMd5Lookup);
}
