import type { SandboxDb } from "../db";
import { sendJson } from "../http";
import { nextId } from "../ids";
import { handleBody, isObject, parseUtcTimestamp, type ApiContext, type ResourceRoutes } from "./common";

/** §4.6 event types of media data. */
export const MEDIA_EVENT_TYPES = ["event.mediaView", "event.mediaClick"] as const;

/**
 * One line of a media file (CSV without header): `[eventType,]date,identityType,identityValue,media,count`.
 * The event type column is present only when the file list gives no `eventType` (§4.6).
 */
type MediaRecord = { day: string; eventType: string; identityType: string; identityValue: string; media: string; count: number };

export function parseMediaFile(content: string, eventType: string | undefined): { records?: MediaRecord[]; error?: string } {
  const records: MediaRecord[] = [];
  const lines = content.split(/\r?\n/).filter((l) => l.trim() !== "");
  for (const [i, line] of lines.entries()) {
    const cols = line.split(",").map((s) => s.trim());
    const type = eventType ?? cols.shift();
    if (!type || !(MEDIA_EVENT_TYPES as readonly string[]).includes(type)) return { error: `line ${i + 1}: event type must be event.mediaView or event.mediaClick` };
    const [date, identityType, identityValue, media, count] = cols;
    if (!date || parseUtcTimestamp(date) === null) return { error: `line ${i + 1}: date must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS` };
    if (!identityType || !identityValue) return { error: `line ${i + 1}: identityType and identityValue are required` };
    const n = count === undefined || count === "" ? 1 : Number(count);
    if (!Number.isInteger(n) || n < 0) return { error: `line ${i + 1}: count must be a whole number` };
    records.push({ day: date.slice(0, 10), eventType: type, identityType, identityValue, media: media ?? "", count: n });
  }
  return { records };
}

/** Puts a file into the tenant's sandbox object storage (control plane, tests, seeder). */
export function putStorageObject(db: SandboxDb, tenant: number, path: string, content: string, now: number): void {
  db.prepare(
    "INSERT INTO storage_objects (tenant_id, path, content, date_created) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_id, path) DO UPDATE SET content = excluded.content",
  ).run(tenant, path, content, now);
}

export const mediaRoutes: ResourceRoutes = (app, ctx) => {
  const db = ctx.db;
  // §7.5: `error` only when no import task was created; all files are checked before any task is.
  const fail = (c: ApiContext, code: string, message: string) => sendJson(c, { error: { code, message } });

  app.post(
    "/v1/third_party_data/importData",
    handleBody((c, body, tenant) => {
      if (!Array.isArray(body.fileList) || body.fileList.length === 0) return fail(c, "400", "fileList is required: an array of {file, eventType}");
      const files: Array<{ file: string; eventType?: string; records: MediaRecord[] }> = [];
      for (const [i, item] of body.fileList.entries()) {
        if (!isObject(item) || typeof item.file !== "string" || item.file === "") return fail(c, "400", `fileList[${i}].file is required`);
        if (!item.file.startsWith("oss://")) return fail(c, "400", `fileList[${i}].file must be an object-storage path oss://…`);
        const eventType = item.eventType === undefined || item.eventType === null || item.eventType === "" ? undefined : item.eventType;
        if (eventType !== undefined && !(MEDIA_EVENT_TYPES as readonly unknown[]).includes(eventType)) return fail(c, "400", `fileList[${i}].eventType must be event.mediaView or event.mediaClick`);
        const stored = db.prepare("SELECT content FROM storage_objects WHERE tenant_id = ? AND path = ?").get(tenant, item.file) as { content: string } | undefined;
        if (!stored) return fail(c, "404", `file not found: ${item.file}`);
        const parsed = parseMediaFile(stored.content, eventType as string | undefined);
        if (!parsed.records) return fail(c, "400", `${item.file}: ${parsed.error}`);
        files.push({ file: item.file, eventType: eventType as string | undefined, records: parsed.records });
      }
      const now = ctx.clock.nowMs();
      const taskList = db.transaction(() =>
        files.map((f) => {
          const taskId = nextId(db, "mediaTask");
          db.prepare("INSERT INTO media_tasks (id, tenant_id, file, event_type, status, rows, date_created) VALUES (?, ?, ?, ?, 'finished', ?, ?)").run(
            taskId, tenant, f.file, f.eventType ?? null, f.records.length, now,
          );
          // §4.6: a file covers whole days; a later file replaces those days (per event type), so re-importing is harmless.
          const days = new Set(f.records.map((r) => `${r.day}|${r.eventType}`));
          for (const key of days) {
            const [day, type] = key.split("|");
            db.prepare("DELETE FROM media_records WHERE tenant_id = ? AND day = ? AND event_type = ?").run(tenant, day, type);
          }
          const insert = db.prepare("INSERT INTO media_records (tenant_id, day, event_type, task_id, identity_type, identity_value, media, count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
          for (const r of f.records) insert.run(tenant, r.day, r.eventType, taskId, r.identityType, r.identityValue, r.media, r.count);
          return taskId;
        }),
      )();
      return sendJson(c, { taskList });
    }, (c) => fail(c, "400", "the request body must be a JSON object")),
  );
};
