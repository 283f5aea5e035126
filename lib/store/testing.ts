import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterEach, beforeEach, describe } from "vitest";
import type { EncryptionKey } from "@/lib/env";
import { openStore, type Store } from "./database";

/** Test helpers: a throwaway store per dialect. PostgreSQL only when TEST_DATABASE_URL is set. */

export function testKeys(): EncryptionKey[] {
  return [{ id: "test1", key: randomBytes(32) }];
}

export type TestStore = { store: Store; schema?: string; cleanup(): Promise<void> };

export async function openSqliteTestStore(tokenKeys = testKeys()): Promise<TestStore> {
  const store = await openStore({ database: { kind: "sqlite", file: ":memory:" }, tokenKeys });
  return { store, cleanup: () => store.close() };
}

export const postgresUrl = process.env.TEST_DATABASE_URL;

/** Skips loudly without TEST_DATABASE_URL; with CI=true its absence fails the test file instead. */
export function warnIfPostgresSkipped(what: string): void {
  if (!postgresUrl && (process.env.CI === "true" || process.env.CI === "1")) throw new Error(`TEST_DATABASE_URL is not set: with CI=true the PostgreSQL tests must run (${what})`);
  if (!postgresUrl) {
    console.warn(`\n*** SKIPPED on PostgreSQL: ${what} — set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it ***\n`);
  }
}

/** A store in a fresh schema `t_<random>` that `cleanup` drops. */
export async function openPostgresTestStore(tokenKeys = testKeys(), schema = `t_${randomBytes(6).toString("hex")}`): Promise<TestStore> {
  if (!postgresUrl) throw new Error("TEST_DATABASE_URL is not set");
  const store = await openStore({ database: { kind: "postgres", url: postgresUrl }, tokenKeys, schema });
  return {
    store,
    schema,
    async cleanup() {
      await store.close();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export const testDialects: Array<{ name: "sqlite" | "postgres"; enabled: boolean; open: (keys?: EncryptionKey[]) => Promise<TestStore> }> = [
  { name: "sqlite", enabled: true, open: openSqliteTestStore },
  { name: "postgres", enabled: Boolean(postgresUrl), open: (keys) => openPostgresTestStore(keys) },
];

export type TestDialect = (typeof testDialects)[number];

/**
 * A battery of store tests run once per dialect (PostgreSQL skipped without TEST_DATABASE_URL),
 * every test on a fresh store: `t` is the current one (filled in before each test).
 */
export function describeEachDialect(title: string, battery: (t: TestStore, dialect: TestDialect) => void): void {
  for (const dialect of testDialects) {
    describe.skipIf(!dialect.enabled)(`${title} on ${dialect.name}`, () => {
      const t = {} as TestStore;
      beforeEach(async () => {
        Object.assign(t, await dialect.open());
      });
      afterEach(() => t.cleanup());
      battery(t, dialect);
    });
  }
}

/**
 * Two store instances over one database, as two app processes see it: on PostgreSQL two pools over
 * one fresh schema; on SQLite the one in-memory store twice (a process holds one connection to its
 * file: better-sqlite3 is synchronous, so a second connection in the same thread would wait on the
 * first while holding the thread). For races between first writes keyed by a platform id.
 */
export async function openTwinTestStores(dialect: TestDialect): Promise<{ stores: [Store, Store]; cleanup(): Promise<void> }> {
  const first = await dialect.open();
  if (dialect.name === "sqlite") return { stores: [first.store, first.store], cleanup: first.cleanup };
  const second = await openStore({ database: { kind: "postgres", url: postgresUrl! }, tokenKeys: first.store.tokenKeys, schema: first.schema });
  return {
    stores: [first.store, second],
    async cleanup() {
      await second.close();
      await first.cleanup();
    },
  };
}

/** `count` calls of `write(i)` started at once, spread over the stores; every error is kept (none expected). */
export async function concurrently(count: number, write: (i: number) => Promise<unknown>): Promise<{ results: unknown[]; errors: unknown[] }> {
  const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => write(i)));
  return {
    results: settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : [])),
    errors: settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : [])),
  };
}
