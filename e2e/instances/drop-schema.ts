import { dropStoreSchema } from "../support/store-schema";

/** After the two-instance suite: its schema and its job queue's (`DATABASE_SCHEMA`, `<schema>_jobs`). */
export default async function dropSchema(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  const schema = process.env.E2E_INSTANCES_SCHEMA;
  if (!url || !schema || !/^e2e_[0-9a-f]+$/.test(schema)) return;
  await dropStoreSchema(url, schema);
}
