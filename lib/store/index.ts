import "server-only";
import { env } from "@/lib/env";
import { openStore, type Store } from "./database";

export type { Store } from "./database";

let current: Promise<Store> | undefined;

/** The process's store, opened (and migrated) on first use. */
export function getStore(): Promise<Store> {
  if (!current) {
    const settings = env();
    current = openStore({ database: settings.database, tokenKeys: settings.tokenKeys });
    // A failed open is retried on the next call rather than cached forever.
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}

/** Tests only: use this store (or forget the current one with `undefined`). */
export function setStoreForTests(store: Store | undefined): void {
  current = store ? Promise.resolve(store) : undefined;
}
