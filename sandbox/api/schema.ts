import { registerMigrations } from "../db";

/**
 * Tables of the resource API (§2). Every row carries `tenant_id`; every query filters by it.
 * Times are stored as Unix milliseconds (UTC) and formatted on the way out (§2 conventions).
 * Fields that are only ever returned live in a JSON `doc`; fields that are filtered or sorted on
 * have their own column and an index that starts with `tenant_id`.
 */
registerMigrations([
  {
    id: "api-001",
    sql: `
      CREATE TABLE customers (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL,
        name TEXT, nick_name TEXT, mobile TEXT, email TEXT, gender INTEGER, stage TEXT, source TEXT,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL, doc TEXT NOT NULL
      );
      CREATE INDEX customers_tenant_id ON customers (tenant_id, id);
      CREATE INDEX customers_stage ON customers (tenant_id, stage, id);
      CREATE INDEX customers_source ON customers (tenant_id, source, id);
      CREATE INDEX customers_gender ON customers (tenant_id, gender, id);
      CREATE INDEX customers_mobile ON customers (tenant_id, mobile);
      CREATE INDEX customers_email ON customers (tenant_id, email);
      CREATE INDEX customers_created ON customers (tenant_id, date_created, id);
      CREATE INDEX customers_updated ON customers (tenant_id, last_updated, id);

      -- Deep paging in id order (§4.1 page): blocks of consecutive ids with their row count, so
      -- that the offset of page N is found by summing block counts instead of skipping rows.
      CREATE TABLE customer_rank_blocks (
        tenant_id INTEGER NOT NULL, first_id INTEGER NOT NULL, count INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, first_id)
      ) WITHOUT ROWID;

      CREATE TABLE customer_identities (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, customer_id INTEGER NOT NULL,
        type TEXT NOT NULL, value TEXT NOT NULL, name TEXT,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX customer_identities_value ON customer_identities (tenant_id, type, value);
      CREATE INDEX customer_identities_customer ON customer_identities (customer_id);

      -- §2.2: md5 identities are kept apart; ordinary identity queries never read this table.
      CREATE TABLE customer_md5_identities (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, customer_id INTEGER NOT NULL,
        md5type TEXT NOT NULL, type TEXT NOT NULL, value TEXT, md5value TEXT NOT NULL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX customer_md5_value ON customer_md5_identities (tenant_id, md5type, md5value);
      CREATE INDEX customer_md5_customer ON customer_md5_identities (customer_id);

      CREATE TABLE customer_events (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, customer_id INTEGER NOT NULL,
        event TEXT NOT NULL, date INTEGER NOT NULL, last_updated INTEGER NOT NULL,
        external_id TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0, doc TEXT NOT NULL
      );
      -- §2.3 dedupe (customer ids are unique across tenants); also serves a customer's events.
      CREATE UNIQUE INDEX customer_events_dedupe ON customer_events (customer_id, event, external_id);
      CREATE INDEX customer_events_tenant_date ON customer_events (tenant_id, date);

      -- §2.3: custom event types (c_) get their properties defined on first use.
      CREATE TABLE custom_event_types (
        tenant_id INTEGER NOT NULL, event TEXT NOT NULL, props TEXT NOT NULL, PRIMARY KEY (tenant_id, event)
      ) WITHOUT ROWID;

      CREATE TABLE deals (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, customer_id INTEGER NOT NULL, order_no TEXT NOT NULL,
        date_order INTEGER NOT NULL, state TEXT NOT NULL, amount_paid REAL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL, doc TEXT NOT NULL
      );
      CREATE UNIQUE INDEX deals_order_no ON deals (tenant_id, order_no);
      CREATE INDEX deals_customer ON deals (customer_id, date_order);
      CREATE INDEX deals_tenant_date ON deals (tenant_id, date_order);

      CREATE TABLE refunds (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, order_no TEXT NOT NULL, customer_id INTEGER NOT NULL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL, doc TEXT NOT NULL
      );
      CREATE INDEX refunds_order ON refunds (tenant_id, order_no);

      CREATE TABLE lists (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, name TEXT NOT NULL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE INDEX lists_tenant ON lists (tenant_id, id);

      CREATE TABLE list_members (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, list_id INTEGER NOT NULL, customer_id INTEGER NOT NULL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX list_members_pair ON list_members (list_id, customer_id);
      CREATE INDEX list_members_list_id ON list_members (list_id, id);
      CREATE INDEX list_members_customer ON list_members (customer_id, list_id);
      CREATE INDEX list_members_tenant ON list_members (tenant_id, customer_id);

      CREATE TABLE tag_dimensions (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, dimension_key TEXT NOT NULL, name TEXT NOT NULL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX tag_dimensions_key ON tag_dimensions (tenant_id, dimension_key);

      CREATE TABLE tags (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, name TEXT NOT NULL, dimension TEXT NOT NULL,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX tags_name ON tags (tenant_id, name);

      CREATE TABLE customer_tags (
        customer_id INTEGER NOT NULL, tag_id INTEGER NOT NULL, tenant_id INTEGER NOT NULL, date_created INTEGER NOT NULL,
        PRIMARY KEY (customer_id, tag_id)
      ) WITHOUT ROWID;
      CREATE INDEX customer_tags_tag ON customer_tags (tag_id, customer_id);

      CREATE TABLE external_tags (
        tenant_id INTEGER NOT NULL, name TEXT NOT NULL, date_created INTEGER NOT NULL, PRIMARY KEY (tenant_id, name)
      ) WITHOUT ROWID;

      -- The sandbox's object storage (oss://…) for external tag files and media files.
      CREATE TABLE storage_objects (
        tenant_id INTEGER NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL, date_created INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, path)
      ) WITHOUT ROWID;

      CREATE TABLE media_tasks (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, file TEXT NOT NULL, event_type TEXT,
        status TEXT NOT NULL, rows INTEGER NOT NULL, message TEXT, date_created INTEGER NOT NULL
      );
      CREATE TABLE media_records (
        tenant_id INTEGER NOT NULL, day TEXT NOT NULL, event_type TEXT NOT NULL, task_id INTEGER NOT NULL,
        identity_type TEXT, identity_value TEXT, media TEXT, count INTEGER NOT NULL
      );
      CREATE INDEX media_records_day ON media_records (tenant_id, day);

      CREATE TABLE stores (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, sid TEXT NOT NULL, branch_name TEXT NOT NULL,
        shop_name TEXT NOT NULL, business_name TEXT NOT NULL, owner_id INTEGER, owner_name TEXT,
        shop_info_all TEXT NOT NULL, meta TEXT, remark TEXT,
        date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE INDEX stores_tenant ON stores (tenant_id, id);
      CREATE TABLE store_groups (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, name TEXT NOT NULL, remark TEXT NOT NULL,
        creator_id INTEGER, creator_name TEXT, date_created INTEGER NOT NULL, last_updated INTEGER NOT NULL
      );
      CREATE TABLE store_group_members (
        group_id INTEGER NOT NULL, store_id INTEGER NOT NULL, PRIMARY KEY (group_id, store_id)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Ordered reads of a whole tenant without a sort: events by id or lastUpdated, customers by name.
    id: "api-002",
    sql: `
      CREATE INDEX customer_events_tenant ON customer_events (tenant_id);
      CREATE INDEX customer_events_tenant_updated ON customer_events (tenant_id, last_updated);
      CREATE INDEX customers_name ON customers (tenant_id, name);
    `,
  },
]);
