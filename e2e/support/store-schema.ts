import pg from "pg";

/** Drops a test's PostgreSQL schema and its job queue's (`DATABASE_SCHEMA`, `<schema>_jobs`). */
export async function dropStoreSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(schema)) throw new Error(`not a test schema: ${schema}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
  } finally {
    await client.end();
  }
}
