import { LIMITS } from "@/lib/platform/limits";
import type { SandboxDb } from "../db";
import { sendJson } from "../http";
import { nextId } from "../ids";
import { handle, handleBody, isBlank, parseId, queryCustomerIds, queryInt, readObject, sendBadBody, sendError, sendFieldError, sendNotFound, tooLong, utc, type ApiContext, type Json, type ResourceRoutes } from "./common";
import { customerStore } from "./customer-store";
import { deleteRoute, pageRoute } from "./table-routes";

/** §2.6 built-in tag dimensions, present in every tenant. */
export const BUILT_IN_DIMENSIONS = [
  { key: "basic", name: "基础标签" },
  { key: "interests", name: "兴趣爱好" },
  { key: "consumptive_habit", name: "消费习惯" },
] as const;
/** Tags created implicitly (addCustomerTag with a new name) go to this dimension. */
export const DEFAULT_DIMENSION = "basic";

type DimensionRow = { id: bigint; dimension_key: string; name: string; date_created: bigint; last_updated: bigint };
type TagRow = { id: bigint; name: string; dimension: string; date_created: bigint; last_updated: bigint };
const TAG_COLUMNS = "id, name, dimension, date_created, last_updated";

const toDimension = (r: DimensionRow): Json => ({ id: r.id, dimensionKey: r.dimension_key, name: r.name, dateCreated: utc(r.date_created), lastUpdated: utc(r.last_updated) });
const toTag = (r: TagRow): Json => ({ id: r.id, name: r.name, dimension: r.dimension, dateCreated: utc(r.date_created), lastUpdated: utc(r.last_updated) });

/** Creates the built-in dimensions of a tenant when they are missing (after a reset, for a new tenant). */
export function ensureBuiltInDimensions(db: SandboxDb, tenant: number, now: number): void {
  const have = db.prepare("SELECT count(*) AS n FROM tag_dimensions WHERE tenant_id = ? AND dimension_key IN ('basic', 'interests', 'consumptive_habit')").get(tenant) as { n: number };
  if (have.n === BUILT_IN_DIMENSIONS.length) return;
  const insert = db.prepare("INSERT OR IGNORE INTO tag_dimensions (id, tenant_id, dimension_key, name, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)");
  for (const d of BUILT_IN_DIMENSIONS) {
    if (db.prepare("SELECT 1 FROM tag_dimensions WHERE tenant_id = ? AND dimension_key = ?").get(tenant, d.key)) continue;
    insert.run(nextId(db, "tagDimension"), tenant, d.key, d.name, now, now);
  }
}

/** The tag of that name, created in the default dimension when missing. */
export function tagByName(db: SandboxDb, tenant: number, name: string, now: number): { row: TagRow; created: boolean } {
  const existing = db.prepare(`SELECT ${TAG_COLUMNS} FROM tags WHERE tenant_id = ? AND name = ?`).safeIntegers(true).get(tenant, name) as TagRow | undefined;
  if (existing) return { row: existing, created: false };
  const id = nextId(db, "tag");
  db.prepare("INSERT INTO tags (id, tenant_id, name, dimension, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)").run(id, tenant, name, DEFAULT_DIMENSION, now, now);
  return { row: { id, name, dimension: DEFAULT_DIMENSION, date_created: BigInt(now), last_updated: BigInt(now) }, created: true };
}

const TAG_SORTS: Record<string, string> = { id: "id", name: "name", dimension: "dimension", dateCreated: "date_created", lastUpdated: "last_updated" };

/** The current day's folder of external tag files in the sandbox's object storage (§4.5). */
export function externalTagFolder(nowMs: number): string {
  return `oss://sandbox/external-tags/${new Date(nowMs).toISOString().slice(0, 10).replace(/-/g, "")}/`;
}

export const tagRoutes: ResourceRoutes = (app, ctx, publish) => {
  const db = ctx.db;
  const getTag = (tenant: number, id: bigint | null) =>
    id === null ? undefined : (db.prepare(`SELECT ${TAG_COLUMNS} FROM tags WHERE id = ? AND tenant_id = ?`).safeIntegers(true).get(id, tenant) as TagRow | undefined);
  const dimensionExists = (tenant: number, key: string) => Boolean(db.prepare("SELECT 1 FROM tag_dimensions WHERE tenant_id = ? AND dimension_key = ?").get(tenant, key));
  const nameTaken = (tenant: number, name: string, exceptId?: bigint) =>
    Boolean(db.prepare("SELECT 1 FROM tags WHERE tenant_id = ? AND name = ? AND id != ?").get(tenant, name, exceptId ?? 0));
  const ready = (tenant: number) => ensureBuiltInDimensions(db, tenant, ctx.clock.nowMs());

  app.post(
    "/v1/tagdimensions",
    handleBody((c, body, tenant) => {
      ready(tenant);
      for (const f of ["name", "dimensionKey"] as const) {
        if (typeof body[f] !== "string" || (body[f] as string).trim() === "") return sendFieldError(c, f, `${f} is required`);
        const max = LIMITS[f === "name" ? "dimensionName" : "dimensionKey"];
        if (tooLong(body[f], max)) return sendFieldError(c, f, `${f} must be at most ${max} characters`);
      }
      if (dimensionExists(tenant, body.dimensionKey as string)) return sendFieldError(c, "dimensionKey", `dimension ${String(body.dimensionKey)} already exists`);
      const now = ctx.clock.nowMs();
      const id = nextId(db, "tagDimension");
      db.prepare("INSERT INTO tag_dimensions (id, tenant_id, dimension_key, name, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)").run(id, tenant, body.dimensionKey, body.name, now, now);
      publish(tenant, "tagDimension", "created", id);
      return sendJson(c, toDimension({ id, dimension_key: body.dimensionKey as string, name: body.name as string, date_created: BigInt(now), last_updated: BigInt(now) }));
    }),
  );

  app.get(
    "/v1/tagdimensions",
    handle((c, tenant) => {
      ready(tenant);
      const max = queryInt(c, "max", 20, 1, 1000);
      const rows = db.prepare("SELECT id, dimension_key, name, date_created, last_updated FROM tag_dimensions WHERE tenant_id = ? ORDER BY id LIMIT ?").safeIntegers(true).all(tenant, max) as DimensionRow[];
      return sendJson(c, rows.map(toDimension));
    }),
  );

  function checkTagFields(body: Json, partial: boolean): { fieldName: string; message: string } | undefined {
    if (!partial || !isBlank(body.name)) {
      if (typeof body.name !== "string" || body.name.trim() === "") return { fieldName: "name", message: "name is required" };
      if (tooLong(body.name, LIMITS.tagName)) return { fieldName: "name", message: `name must be at most ${LIMITS.tagName} characters` };
    }
    if (!partial || !isBlank(body.dimension)) {
      if (typeof body.dimension !== "string" || body.dimension.trim() === "") return { fieldName: "dimension", message: "dimension is required" };
      if (tooLong(body.dimension, LIMITS.tagDimension)) return { fieldName: "dimension", message: `dimension must be at most ${LIMITS.tagDimension} characters` };
    }
    return undefined;
  }

  app.post(
    "/v1/tags",
    handleBody((c, body, tenant) => {
      ready(tenant);
      const problem = checkTagFields(body, false);
      if (problem) return sendFieldError(c, problem.fieldName, problem.message);
      if (!dimensionExists(tenant, body.dimension as string)) return sendFieldError(c, "dimension", `no tag dimension with key ${String(body.dimension)}`);
      if (nameTaken(tenant, body.name as string)) return sendFieldError(c, "name", `a tag named ${String(body.name)} already exists`);
      const now = ctx.clock.nowMs();
      const id = nextId(db, "tag");
      db.prepare("INSERT INTO tags (id, tenant_id, name, dimension, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?)").run(id, tenant, body.name, body.dimension, now, now);
      publish(tenant, "tag", "created", id);
      return sendJson(c, toTag(getTag(tenant, id)!));
    }),
  );

  app.put(
    "/v1/tags/:id",
    handle(async (c, tenant) => {
      ready(tenant);
      const tag = getTag(tenant, parseId(c.req.param("id")));
      if (!tag) return sendNotFound(c, `tag ${c.req.param("id")}`);
      const body = await readObject(c);
      if (!body) return sendBadBody(c);
      const problem = checkTagFields(body, true);
      if (problem) return sendFieldError(c, problem.fieldName, problem.message);
      const name = (isBlank(body.name) ? tag.name : body.name) as string;
      const dimension = (isBlank(body.dimension) ? tag.dimension : body.dimension) as string;
      if (!dimensionExists(tenant, dimension)) return sendFieldError(c, "dimension", `no tag dimension with key ${dimension}`);
      if (nameTaken(tenant, name, tag.id)) return sendFieldError(c, "name", `a tag named ${name} already exists`);
      db.prepare("UPDATE tags SET name = ?, dimension = ?, last_updated = ? WHERE id = ?").run(name, dimension, ctx.clock.nowMs(), tag.id);
      publish(tenant, "tag", "updated", tag.id);
      return sendJson(c, toTag(getTag(tenant, tag.id)!));
    }),
  );

  const tagDeleted = (tenant: number, id: bigint) => publish(tenant, "tag", "deleted", id);
  app.delete("/v1/tags/:id", deleteRoute(db, "tag", getTag, ["DELETE FROM customer_tags WHERE tag_id = ?", "DELETE FROM tags WHERE id = ?"], tagDeleted));
  app.get("/v1/tags", pageRoute(db, { table: "tags", columns: TAG_COLUMNS, sorts: TAG_SORTS }, toTag));

  /** Reads `customerId` and `tags` of the customer-tag services; an error response or the inputs. */
  async function customerTagBody(c: ApiContext, tenant: number, item: (t: unknown) => unknown) {
    const body = await readObject(c);
    if (!body) return sendBadBody(c);
    const customerId = parseId(body.customerId);
    if (customerId === null) return sendFieldError(c, "customerId", "customerId is required and must be a number");
    if (!Array.isArray(body.tags) || body.tags.length === 0) return sendFieldError(c, "tags", "tags is required: a non-empty array");
    const names: string[] = [];
    for (const [i, t] of body.tags.entries()) {
      const name = item(t);
      if (typeof name !== "string" || name.trim() === "") return sendFieldError(c, `tags[${i}]`, "each tag needs a name");
      if (tooLong(name, LIMITS.tagName)) return sendFieldError(c, `tags[${i}]`, `a tag name is at most ${LIMITS.tagName} characters`);
      if (!names.includes(name)) names.push(name);
    }
    if (!customerStore(db).get(tenant, customerId)) return sendNotFound(c, `customer ${customerId}`);
    return { customerId, names };
  }

  app.post(
    "/v1/tagservice/addCustomerTag",
    handle(async (c, tenant) => {
      const input = await customerTagBody(c, tenant, (t) => (t !== null && typeof t === "object" ? (t as Json).name : undefined));
      if (input instanceof Response) return input;
      const { customerId, names } = input;
      const now = ctx.clock.nowMs();
      ready(tenant);
      const created: bigint[] = [];
      const added = db.transaction(() =>
        names.filter((name) => {
          const tag = tagByName(db, tenant, name, now);
          if (tag.created) created.push(tag.row.id);
          return db.prepare("INSERT OR IGNORE INTO customer_tags (customer_id, tag_id, tenant_id, date_created) VALUES (?, ?, ?, ?)").run(customerId, tag.row.id, tenant, now).changes > 0;
        }),
      )();
      for (const id of created) publish(tenant, "tag", "created", id);
      if (added.length > 0) publish(tenant, "customerTag", "added", customerId, { tags: added });
      return sendJson(c, names);
    }),
  );

  app.post(
    "/v1/tagservice/removeCustomerTag",
    handle(async (c, tenant) => {
      const input = await customerTagBody(c, tenant, (t) => t);
      if (input instanceof Response) return input;
      const { customerId, names } = input;
      const removed = db.transaction(() =>
        names.filter(
          (name) =>
            db.prepare("DELETE FROM customer_tags WHERE customer_id = ? AND tag_id = (SELECT id FROM tags WHERE tenant_id = ? AND name = ?)").run(customerId, tenant, name).changes > 0,
        ),
      )();
      if (removed.length > 0) publish(tenant, "customerTag", "removed", customerId, { tags: removed });
      return sendJson(c, removed);
    }),
  );

  app.get(
    "/v1/tagservice/getCustomerTags",
    handle((c, tenant) => {
      const ids = queryCustomerIds(c, "customerId");
      if (ids.length > 1000) return sendFieldError(c, "customerId", "at most 1000 customer ids");
      const out: Record<string, string> = {};
      const tagsOf = db.prepare("SELECT t.name FROM customer_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.customer_id = ? ORDER BY t.id");
      // Only customers of this tenant appear; an unknown id is left out rather than made up.
      for (const id of ids) {
        if (!customerStore(db).get(tenant, id)) continue;
        out[String(id)] = (tagsOf.all(id) as Array<{ name: string }>).map((r) => r.name).join(",");
      }
      return sendJson(c, out);
    }),
  );

  app.post(
    "/v1/tags/:fromId/mergeto/:toId",
    handle((c, tenant) => {
      const from = getTag(tenant, parseId(c.req.param("fromId")));
      if (!from) return sendNotFound(c, `tag ${c.req.param("fromId")}`);
      const to = getTag(tenant, parseId(c.req.param("toId")));
      if (!to) return sendNotFound(c, `tag ${c.req.param("toId")}`);
      if (from.id === to.id) return sendError(c, "400", "a tag cannot be merged into itself");
      db.transaction(() => {
        // §4.5: customers with the fromId tag get the toId tag; the fromId tag is deleted.
        db.prepare("INSERT OR IGNORE INTO customer_tags (customer_id, tag_id, tenant_id, date_created) SELECT customer_id, ?, tenant_id, ? FROM customer_tags WHERE tag_id = ?").run(
          to.id,
          ctx.clock.nowMs(),
          from.id,
        );
        db.prepare("DELETE FROM customer_tags WHERE tag_id = ?").run(from.id);
        db.prepare("DELETE FROM tags WHERE id = ?").run(from.id);
      })();
      publish(tenant, "tag", "merged", to.id, { fromId: String(from.id) });
      publish(tenant, "tag", "deleted", from.id, { mergedInto: String(to.id) });
      return sendJson(c, { success: true });
    }),
  );

  app.post(
    "/v1/externalTags",
    handleBody((c, body, tenant) => {
      let names: unknown[];
      if (body.tags === undefined || body.tags === null) {
        // §4.5: without `tags`, every tag file in the current day's folder (one name per line).
        const files = db.prepare("SELECT content FROM storage_objects WHERE tenant_id = ? AND path LIKE ? ORDER BY path").all(tenant, `${externalTagFolder(ctx.clock.nowMs())}%`) as Array<{ content: string }>;
        names = files.flatMap((f) => f.content.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean);
      } else if (!Array.isArray(body.tags)) {
        return sendFieldError(c, "tags", "tags must be an array of strings");
      } else names = body.tags;
      const success: string[] = [];
      const failed: string[] = [];
      const now = ctx.clock.nowMs();
      db.transaction(() => {
        for (const n of names) {
          if (typeof n !== "string" || n.trim() === "" || tooLong(n, LIMITS.externalTagName)) {
            failed.push(typeof n === "string" ? n : String(n));
            continue;
          }
          db.prepare("INSERT OR IGNORE INTO external_tags (tenant_id, name, date_created) VALUES (?, ?, ?)").run(tenant, n, now);
          success.push(n);
        }
      })();
      if (success.length > 0) publish(tenant, "tag", "imported", "external", { names: success });
      return sendJson(c, { code: "SUCCESS", success, failed });
    }),
  );
};
