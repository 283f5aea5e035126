import { createHash } from "node:crypto";
import { LIMITS } from "@/lib/platform/limits";
import { perDatabase, type SandboxDb } from "../db";
import { nextId } from "../ids";
import { isObject, tooLong, type Json } from "./common";

/** §2.2 built-in identity types. */
export const BUILT_IN_IDENTITY_TYPES = ["messenger", "messenger-unionid", "email", "mobile"] as const;

export type IdentityInput = { identityType: string; identityValue: string; identityName: string | null };
export type IdentityRow = { id: bigint; customer_id: bigint; type: string; value: string; name: string | null };

/** §2.2 / §8 identity limits: type ≤ 32, value ≤ 128, name ≤ 256 characters; type and value required. */
export function validateIdentity(item: unknown, prefix: string): { identity?: IdentityInput; problems: Array<{ fieldName: string; message: string }> } {
  const problems: Array<{ fieldName: string; message: string }> = [];
  if (!isObject(item)) return { problems: [{ fieldName: prefix, message: `${prefix} must be an object {identityType, identityValue, identityName}` }] };
  const type = item.identityType;
  const value = typeof item.identityValue === "number" || typeof item.identityValue === "bigint" ? String(item.identityValue) : item.identityValue;
  const name = item.identityName;
  if (typeof type !== "string" || type.trim() === "") problems.push({ fieldName: `${prefix}identityType`, message: "identityType is required" });
  else if (tooLong(type, LIMITS.identityType)) problems.push({ fieldName: `${prefix}identityType`, message: `identityType must be at most ${LIMITS.identityType} characters` });
  if (typeof value !== "string" || value.trim() === "") problems.push({ fieldName: `${prefix}identityValue`, message: "identityValue is required" });
  else if (tooLong(value, LIMITS.identityValue)) problems.push({ fieldName: `${prefix}identityValue`, message: `identityValue must be at most ${LIMITS.identityValue} characters` });
  if (name !== undefined && name !== null && typeof name !== "string") problems.push({ fieldName: `${prefix}identityName`, message: "identityName must be a string" });
  else if (tooLong(name, LIMITS.identityName)) problems.push({ fieldName: `${prefix}identityName`, message: `identityName must be at most ${LIMITS.identityName} characters` });
  if (problems.length > 0) return { problems };
  return { identity: { identityType: type as string, identityValue: value as string, identityName: (name as string | undefined) ?? null }, problems };
}

export function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

export class IdentityStore {
  private readonly sql;

  constructor(readonly db: SandboxDb) {
    this.sql = {
      find: db.prepare("SELECT id, customer_id, type, value, name FROM customer_identities WHERE tenant_id = ? AND type = ? AND value = ?").safeIntegers(true),
      insert: db.prepare("INSERT INTO customer_identities (id, tenant_id, customer_id, type, value, name, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
      rename: db.prepare("UPDATE customer_identities SET name = ?, last_updated = ? WHERE id = ?"),
      insertMd5: db.prepare(
        `INSERT OR IGNORE INTO customer_md5_identities (id, tenant_id, customer_id, md5type, type, value, md5value, date_created, last_updated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  lookup(tenant: number, type: string, value: string): IdentityRow | undefined {
    return this.sql.find.get(tenant, type, value) as IdentityRow | undefined;
  }

  /**
   * Binds an identity to a customer. An identity already on that customer is kept (its name
   * updated); one bound to another customer is left where it is and reported as `taken`.
   */
  bind(tenant: number, customerId: bigint, identity: IdentityInput, now: number): "bound" | "kept" | "taken" {
    const existing = this.lookup(tenant, identity.identityType, identity.identityValue);
    if (existing) {
      if (existing.customer_id !== customerId) return "taken";
      if (identity.identityName !== null && identity.identityName !== existing.name) this.sql.rename.run(identity.identityName, now, existing.id);
      return "kept";
    }
    this.sql.insert.run(nextId(this.db, "identity"), tenant, customerId, identity.identityType, identity.identityValue, identity.identityName, now, now);
    // Mobile and email identities also get a general ("common") md5 identity, kept apart (§2.2).
    if (identity.identityType === "mobile" || identity.identityType === "email") {
      this.addMd5(tenant, customerId, "common", identity.identityType, identity.identityValue, md5(identity.identityValue), now);
    }
    return "bound";
  }

  addMd5(tenant: number, customerId: bigint, md5type: string, type: string, value: string | null, md5value: string, now: number): void {
    this.sql.insertMd5.run(nextId(this.db, "md5identity"), tenant, customerId, md5type, type, value, md5value, now, now);
  }
}

export const identityStore = perDatabase((db) => new IdentityStore(db));

export function identityOut(row: { customer_id: bigint; type: string; value: string; name: string | null }): Json {
  return { customerId: row.customer_id, identityType: row.type, identityValue: row.value, identityName: row.name };
}
