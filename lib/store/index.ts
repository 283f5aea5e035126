import "server-only";
import { env } from "@/lib/env";
import { processSlot } from "@/lib/process-state";
import { openStore, type Store } from "./database";

export type { Store } from "./database";

const current = processSlot<Promise<Store>>("store");

/** The process's store, opened (and migrated) on first use. */
export function getStore(): Promise<Store> {
  let store = current.get();
  if (!store) {
    const settings = env();
    const schema = settings.database.kind === "postgres" ? settings.database.schema : undefined;
    store = openStore({ database: settings.database, tokenKeys: settings.tokenKeys, ...(schema ? { schema } : {}) });
    current.set(store);
    // A failed open is retried on the next call rather than cached forever.
    store.catch(() => current.set(undefined));
  }
  return store;
}

/** Tests only: use this store (or forget the current one with `undefined`). */
export function setStoreForTests(store: Store | undefined): void {
  current.set(store ? Promise.resolve(store) : undefined);
}
