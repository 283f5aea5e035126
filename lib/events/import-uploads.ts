import "server-only";
import { ApiError } from "@/lib/http/api-error";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { MAX_UPLOAD_BYTES } from "./import-api";

/**
 * The CSV files staff hand to the event import task (import-task.ts), kept in the app's store
 * (`task_uploads`, migration 017) so that whichever instance runs the task, and a run resumed after a
 * restart, reads the same bytes. A file is kept in pieces (rows of `PIECE_BYTES`), keyed by the
 * installation and the upload's id, and read back one piece at a time, so neither the upload nor
 * the task holds the whole file in memory. It goes when its task ends for good (the task's
 * `ended`), with the installation's data (lib/tenant-data finds the table by its columns), and by
 * `sweepUploads` when nothing holds it any more (a start that failed midway, an instance that died).
 */

/** The size of a stored piece: few rows for a large file, small enough to read one at a time. */
export const PIECE_BYTES = 256 * 1024;

/** An upload nothing holds is dropped after this long (a start that never became a task). */
export const ORPHAN_AFTER_MS = 24 * 3600_000;

const tooLarge = (limit: number) =>
  new ApiError({ status: 413, code: "payload_too_large", message: `The file is larger than ${Math.floor(limit / 1024 / 1024)} MB: split it into several files and import each.` });

/** Stored bytes of PostgreSQL (`Buffer`) and SQLite alike. */
const bytesOf = (data: unknown): Uint8Array => (data instanceof Uint8Array ? data : new Uint8Array(data as ArrayBuffer));

export type StoreUploadOptions = { limit?: number; now?: () => number; piece?: number };

/**
 * Stores `body` as the upload `id` of the installation and answers its size. Refused before
 * anything is kept, or with what was kept deleted: a body larger than `limit` (413, by its declared
 * length or as soon as it passes the limit), an empty body (400 `empty_file`), bytes that are not
 * UTF-8 text (400 `not_utf8`: the import reads UTF-8 only, and saying so now beats a task that
 * fails later), a body shorter than its declared length (400 `incomplete_upload`).
 */
export async function storeUpload(
  store: Store,
  key: InstallationKey,
  id: string,
  body: ReadableStream<Uint8Array> | null,
  options: StoreUploadOptions & { declaredBytes?: number } = {},
): Promise<{ size: number }> {
  const limit = options.limit ?? MAX_UPLOAD_BYTES;
  const pieceBytes = options.piece ?? PIECE_BYTES;
  const now = options.now ?? Date.now;
  if (options.declaredBytes !== undefined && options.declaredBytes > limit) throw tooLarge(limit);
  if (!body) throw emptyFile();
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const reader = body.getReader();
  let size = 0;
  let seq = 0;
  let buffer = new Uint8Array(pieceBytes);
  let filled = 0;
  const flush = async () => {
    if (filled === 0) return;
    await store.db
      .insertInto("task_uploads")
      .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, upload_id: id, seq: seq++, data: buffer.slice(0, filled), created_at: now() })
      .execute();
    filled = 0;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      try {
        utf8.decode(value, { stream: true });
      } catch {
        throw notUtf8();
      }
      let at = 0;
      while (at < value.byteLength) {
        const take = Math.min(pieceBytes - filled, value.byteLength - at);
        buffer.set(value.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === pieceBytes) {
          await flush();
          buffer = new Uint8Array(pieceBytes);
        }
      }
    }
    try {
      utf8.decode();
    } catch {
      throw notUtf8();
    }
    if (size === 0) throw emptyFile();
    // A body cut short on its way (a proxy's limit, a dropped connection) is not the file chosen.
    if (options.declaredBytes !== undefined && size !== options.declaredBytes) throw new ApiError({ status: 400, code: "incomplete_upload", message: `The upload ended after ${size} of ${options.declaredBytes} bytes: upload the file again.` });
    await flush();
    return { size };
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    await deleteUpload(store, key, id);
    throw error;
  }
}

const emptyFile = () => new ApiError({ status: 400, code: "empty_file", message: "The file is empty." });
const notUtf8 = () => new ApiError({ status: 400, code: "not_utf8", message: "The file is not UTF-8 text: save it as “CSV UTF-8” and upload it again." });

/** The upload from its first byte, a piece at a time (nothing when there is no such upload). */
export function openUpload(store: Store, key: InstallationKey, id: string): ReadableStream<Uint8Array> {
  let after = -1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const row = await store.db
        .selectFrom("task_uploads")
        .select(["seq", "data"])
        .where("open_app_id", "=", key.openAppId)
        .where("tenant_id", "=", key.tenantId)
        .where("upload_id", "=", id)
        .where("seq", ">", after)
        .orderBy("seq")
        .limit(1)
        .executeTakeFirst();
      if (!row) return controller.close();
      after = Number(row.seq);
      controller.enqueue(bytesOf(row.data));
    },
  });
}

/** Whether the upload is stored (its first piece). */
export async function hasUpload(store: Store, key: InstallationKey, id: string): Promise<boolean> {
  const row = await store.db
    .selectFrom("task_uploads")
    .select("seq")
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("upload_id", "=", id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteUpload(store: Store, key: InstallationKey, id: string): Promise<void> {
  await store.db.deleteFrom("task_uploads").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("upload_id", "=", id).execute();
}

/**
 * Drops the uploads stored before `now - ORPHAN_AFTER_MS` that no task holds (`held`: the uploads
 * of the installation's tasks still queued or running). Answers how many went.
 */
export async function sweepUploads(store: Store, now: number, held: (key: InstallationKey) => Promise<ReadonlySet<string>>): Promise<number> {
  const old = await store.db
    .selectFrom("task_uploads")
    .select(["open_app_id", "tenant_id", "upload_id"])
    .where("seq", "=", 0)
    .where("created_at", "<", now - ORPHAN_AFTER_MS)
    .execute();
  let dropped = 0;
  for (const row of old) {
    const key = { openAppId: row.open_app_id, tenantId: row.tenant_id };
    if ((await held(key)).has(row.upload_id)) continue;
    await deleteUpload(store, key, row.upload_id);
    dropped++;
  }
  return dropped;
}
