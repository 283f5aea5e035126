import type { ColumnType, Generated } from "kysely";

/**
 * The one schema of the app's store: every table, as `lib/store/migrations.ts` creates it. A new
 * table is added here and by a new migration there, nowhere else.
 */

/** bigint columns: PostgreSQL returns them as strings, SQLite as numbers; repositories convert. */
type Epoch = ColumnType<number | string, number, number>;
type NullableEpoch = ColumnType<number | string | null, number | null, number | null>;

export type StoreSchema = {
  environments: {
    open_app_id: string;
    auth_domain: string;
    api_domain: string;
    product_type: string | null;
    product_version: string | null;
    updated_at: Epoch;
  };
  installations: {
    open_app_id: string;
    tenant_id: string;
    tenant_name: string | null;
    installed_by: string | null;
    installed_by_name: string | null;
    status: string;
    access_token: string;
    access_token_expires_at: Epoch;
    refresh_token: string;
    token_generation: ColumnType<number, number | undefined, number>;
    created_at: Epoch;
    updated_at: Epoch;
  };
  // The webhook receiver (§5.5, §6): its inbox of deliveries and the oauth2 mode's hashed tokens.
  webhook_inbox: {
    id: Generated<number | string>;
    open_app_id: string;
    tenant_id: string;
    dedupe_key: string;
    delivery_id: string | null;
    kind: string;
    resource: string | null;
    resource_id: string | null;
    action: string | null;
    occurred_at: string | null;
    verification: string;
    received_at: Epoch;
    payload: string;
  };
  webhook_tokens: {
    token_hash: string;
    app_id: string;
    issued_at: Epoch;
    expires_at: Epoch;
  };
  // Sign-in hardening (lib/store/sign-ins.ts, docs/decisions/sign-in-hardening.md): single-use flow nonces and server-side sign-ins.
  auth_flow_nonces: {
    nonce_hash: string;
    expires_at: Epoch;
  };
  sign_ins: {
    id: string;
    open_app_id: string;
    tenant_id: string;
    user_id: string;
    created_at: Epoch;
    expires_at: Epoch;
    revoked_at: ColumnType<number | string | null, number | null | undefined, number | null>;
  };
  // Refunds this console made or deleted (docs/decisions/refunds-recorded-by-the-app.md): the platform has no read of refunds (§4.2).
  order_refunds: {
    id: Generated<number | string>;
    open_app_id: string;
    tenant_id: string;
    order_no: string;
    /** The browser's key of one refund request: a second send of it (double click, retry) is not a second refund. */
    request_key: string;
    /** `sending` (asked, no answer yet), `recorded` (the platform answered), `deleted` (deleteRefund answered). */
    status: string;
    /** §4.2 refund `state`: 完全退单 or 部分退单. */
    refund_state: string;
    /** Decimal text, as the platform answered it (else as sent). */
    refund_total: string | null;
    reason: string | null;
    /** JSON array of the refunded line ids. */
    line_ids: string;
    /** The platform's refund record (JSON), once it answered. */
    answer: string | null;
    recorded_by: string | null;
    recorded_at: Epoch;
    deleted_by: string | null;
    deleted_at: Epoch | null;
  };
  // The tenant customer index (migration 006, lib/search/): one row per installation, then its customers.
  search_tenants: {
    id: Generated<number>;
    open_app_id: string;
    tenant_id: string;
    phase: string;
    backfill_after: string | null;
    total: ColumnType<number | string | null, number | null, number | null>;
    indexed: ColumnType<number | string, number | undefined, number>;
    poll_from: string | null;
    started_at: NullableEpoch;
    synced_at: NullableEpoch;
    last_change_at: NullableEpoch;
    error: string | null;
  };
  customer_index: {
    tenant: number;
    customer_id: string;
    display_name: string | null;
    name: string | null;
    nick_name: string | null;
    email: string | null;
    mobile: string | null;
    stage: string | null;
    source: string | null;
    gender: number | null;
    identities: string | null;
    date_created: string | null;
    last_updated: string | null;
    name_key: string | null;
    nick_key: string | null;
    search_text: string;
  };
  customer_index_tags: {
    tenant: number;
    tag: string;
    customer_id: string;
  };
  // Shops, shop groups and media imports (§4.6, §4.8), per tenant installation.
  shop_register: {
    open_app_id: string;
    tenant_id: string;
    shop_id: string;
    sid: string | null;
    business_name: string | null;
    branch_name: string | null;
    shop_name: string | null;
    shop_status: string | null;
    refuse_reason: string | null;
    shop_info_all: string | null;
    /** How the app learned of it: `created`, `updated`, `group` (a group read) or `manual` (added by id). */
    source: string;
    /** When the platform last returned it (a create, update or group read); NULL: never seen. */
    seen_at: Epoch | null;
    updated_at: Epoch;
  };
  shop_groups: {
    open_app_id: string;
    tenant_id: string;
    group_id: string;
    name: string | null;
    remark: string | null;
    /** `created` through the app, or `opened` by id. */
    origin: string;
    created_by_name: string | null;
    /** JSON arrays of shop ids: what the creation answered (§4.8 `success`, `failed`). */
    added_ids: string | null;
    failed_ids: string | null;
    shop_count: number | null;
    created_at: Epoch;
    read_at: Epoch | null;
  };
  media_imports: {
    id: string;
    open_app_id: string;
    tenant_id: string;
    started_by: string;
    started_by_name: string | null;
    started_at: Epoch;
    /** JSON `[{file, eventType?}]` as sent (§4.6). */
    files: string;
    /** JSON array of the task ids the platform returned. */
    task_ids: string;
  };
  // Console preferences (docs/decisions/preferences-in-the-app-store.md): attribute labels per tenant (`user_id` ''), column choices per user.
  console_preferences: {
    open_app_id: string;
    tenant_id: string;
    /** The staff member's id, or '' for a preference of the whole tenant. */
    user_id: string;
    key: string;
    /** JSON, checked by lib/preferences/preference-rules.ts on the way in. */
    value: string;
    updated_by: string | null;
    updated_at: Epoch;
  };
  // A completed code exchange waiting for the user's confirmation (tokens encrypted as installations').
  pending_sign_ins: {
    id_hash: string;
    open_app_id: string;
    tenant_id: string;
    /** JSON: purpose, returnTo. */
    flow: string;
    /** JSON: userId, userName, tenantName. */
    user_data: string;
    access_token: string;
    refresh_token: string;
    access_token_expires_at: Epoch;
    expires_at: Epoch;
  };
  // A token refresh begun and not yet stored: resumed at start-up (lib/auth/access-token.ts).
  refresh_flights: {
    open_app_id: string;
    tenant_id: string;
    started_at: Epoch;
  };
  /** A shop or group creation: recorded before the platform call, completed after (lib/shops/shop-writes.ts). */
  shop_write_requests: {
    open_app_id: string;
    tenant_id: string;
    /** The browser dialog's idempotency key (one per dialog), or one the server made. */
    request_key: string;
    /** `shop.create` | `group.create`. */
    operation: string;
    /** `sending` (the platform was asked), `sent` (it answered; the register not yet written), `done`. */
    status: string;
    /** JSON: what was sent. */
    input: string;
    /** The platform's id of the created shop or group. */
    result_id: string | null;
    /** JSON: the platform's answer that matters here (a group's success / failed ids). */
    answer: string | null;
    requested_by: string | null;
    requested_at: Epoch;
  };
  /** A background task (lib/tasks): input, progress, checkpoint and result of one run of work. */
  app_tasks: {
    id: string;
    open_app_id: string;
    tenant_id: string;
    kind: string;
    /** queued | running | done | failed | cancelled */
    state: string;
    exclusive_key: string | null;
    /** JSON. */
    input: string;
    /** JSON: where a resumed run continues. */
    checkpoint: string | null;
    progress_done: ColumnType<number | string, number | undefined, number>;
    progress_total: ColumnType<number | string | null, number | null | undefined, number | null>;
    message: string | null;
    /** JSON. */
    result: string | null;
    error: string | null;
    started_by: string;
    started_by_name: string;
    cancelled_by: string | null;
    cancelled_by_name: string | null;
    cancel_requested: ColumnType<number, number | undefined, number>;
    attempts: ColumnType<number, number | undefined, number>;
    run_token: string | null;
    heartbeat_at: NullableEpoch;
    run_after: NullableEpoch;
    created_at: Epoch;
    started_at: NullableEpoch;
    updated_at: Epoch;
    finished_at: NullableEpoch;
    file_name: string | null;
    file_type: string | null;
    file_size: ColumnType<number | string, number | undefined, number>;
    file_expires_at: NullableEpoch;
  };
  app_task_files: {
    task_id: string;
    seq: number;
    open_app_id: string;
    tenant_id: string;
    data: Uint8Array;
  };
  /** A recurring job (lib/tasks/schedules.ts): the instance that moves `next_run_at` on runs it. */
  task_schedules: {
    name: string;
    next_run_at: Epoch;
    last_run_at: NullableEpoch;
    last_error: string | null;
  };
};
