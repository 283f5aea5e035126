import type { Clock } from "./clock";
import type { EnvironmentConfig, SandboxConfig } from "./config";
import type { SandboxDb } from "./db";

/** One injected fault (`POST /__sandbox/faults`); matches requests whose path starts with `path`. */
export type FaultRule = {
  path: string;
  method?: string;
  latencyMs?: number;
  /** 0..1: share of matching requests that fail with `status`. */
  errorRate?: number;
  status?: number;
  retryAfterSeconds?: number;
};

/** Calls per endpoint (`METHOD /route`) and token grants per grant type, for `GET /__sandbox/stats`. */
export class Stats {
  calls = new Map<string, number>();
  tokenGrants = new Map<string, number>();

  countCall(key: string): void {
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  countGrant(grantType: string): void {
    this.tokenGrants.set(grantType, (this.tokenGrants.get(grantType) ?? 0) + 1);
  }

  reset(): void {
    this.calls.clear();
    this.tokenGrants.clear();
  }

  toJSON() {
    return { calls: Object.fromEntries(this.calls), tokenGrants: Object.fromEntries(this.tokenGrants) };
  }
}

/**
 * A change to tenant data, published by the resource API and delivered as an outbound webhook
 * (§5.5, §6) by the webhook sender. `id` is the decimal id (or order number) of what changed.
 */
export type ChangeEvent = {
  environment: string;
  tenantId: number;
  resource: "customer" | "event" | "order" | "refund" | "list" | "listMember" | "tagDimension" | "tag" | "customerTag" | "store";
  action: "created" | "updated" | "deleted" | "merged" | "cancelled" | "refunded" | "added" | "removed" | "imported";
  id: string;
  /** Small, resource-specific details (e.g. the customer id of an order, the target of a merge). */
  data?: Record<string, unknown>;
};

export type SandboxContext = {
  config: SandboxConfig;
  db: SandboxDb;
  clock: Clock;
  stats: Stats;
  faults: FaultRule[];
  /** Called after `POST /__sandbox/reset` emptied the database and restored the base data. */
  onReset: Array<() => void>;
  /** Subscribers to `publishChange` (the webhook sender registers one). */
  changeListeners: Array<(change: ChangeEvent) => void>;
};

export function publishChange(ctx: SandboxContext, change: ChangeEvent): void {
  for (const listener of ctx.changeListeners) listener(change);
}

export function environmentByName(ctx: SandboxContext, name: string): EnvironmentConfig | undefined {
  return ctx.config.environments.find((e) => e.name === name);
}

/** Environments, their tenant and demo staff: present after start and after every reset. */
export function ensureBaseData(ctx: SandboxContext): void {
  const { db, config } = ctx;
  const insertEnv = db.prepare(
    `INSERT INTO environments (name, origin, open_app_id, product_type, product_version) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(name) DO UPDATE SET origin = excluded.origin`,
  );
  const insertTenant = db.prepare("INSERT OR IGNORE INTO tenants (id, environment, name) VALUES (?, ?, ?)");
  const insertStaff = db.prepare("INSERT OR IGNORE INTO staff (id, tenant_id, email, password, name) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (const e of config.environments) {
      insertEnv.run(e.name, e.origin, e.openAppId, e.productType, e.productVersion);
      insertTenant.run(e.tenant.id, e.name, e.tenant.name);
      for (const staff of [e.staff, ...(e.moreStaff ?? [])]) insertStaff.run(staff.id, e.tenant.id, staff.email, staff.password, staff.name);
    }
  })();
}

/** Empties every table (schema stays), then restores the base data; clock, stats and faults too. */
export function resetSandbox(ctx: SandboxContext): void {
  const tables = ctx.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != '_migrations'")
    .all() as { name: string }[];
  ctx.db.pragma("foreign_keys = OFF");
  ctx.db.transaction(() => {
    for (const t of tables) ctx.db.exec(`DELETE FROM "${t.name}"`);
  })();
  ctx.db.pragma("foreign_keys = ON");
  ensureBaseData(ctx);
  ctx.clock.reset();
  ctx.stats.reset();
  ctx.faults.length = 0;
  for (const listener of ctx.onReset) listener();
}
