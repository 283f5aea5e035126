import pg from "pg";

/** After the two-instance suite: its schema and its job queue's go (`DATABASE_SCHEMA`, `<schema>_jobs`). */
export default async function dropSchema(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  const schema = process.env.E2E_INSTANCES_SCHEMA;
  if (!url || !schema || !/^e2e_[0-9a-f]+$/.test(schema)) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
  } finally {
    await client.end();
  }
}
