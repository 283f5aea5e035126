import "server-only";
import { randomUUID } from "node:crypto";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { MAX_IMPORT_HISTORY, type MediaFile, type MediaImport } from "./media-api";

/**
 * The media imports started through the app (§4.6): the platform returns task ids and offers no
 * task read, so who started which files when, and the ids, are kept here per tenant installation.
 */

type Row = { id: string; started_by: string; started_by_name: string | null; started_at: number | string; files: string; task_ids: string };

const toImport = (r: Row): MediaImport => ({
  id: r.id,
  startedBy: r.started_by,
  startedByName: r.started_by_name,
  startedAt: Number(r.started_at),
  files: JSON.parse(r.files) as MediaFile[],
  taskIds: JSON.parse(r.task_ids) as string[],
});

export async function recordMediaImport(
  store: Store,
  key: InstallationKey,
  entry: { startedBy: string; startedByName: string | null; files: MediaFile[]; taskIds: string[] },
  now: number,
): Promise<MediaImport> {
  const row: Row = { id: randomUUID(), started_by: entry.startedBy, started_by_name: entry.startedByName, started_at: now, files: JSON.stringify(entry.files), task_ids: JSON.stringify(entry.taskIds) };
  await store.db.insertInto("media_imports").values({ ...row, started_at: now, open_app_id: key.openAppId, tenant_id: key.tenantId }).execute();
  return toImport(row);
}

/** The installation's imports, latest first. */
export async function listMediaImports(store: Store, key: InstallationKey, limit = MAX_IMPORT_HISTORY): Promise<MediaImport[]> {
  const rows = await store.db
    .selectFrom("media_imports")
    .select(["id", "started_by", "started_by_name", "started_at", "files", "task_ids"])
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return (rows as Row[]).map(toImport);
}
