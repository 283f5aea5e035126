import { expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { deleteTenantRows } from "@/lib/tenant-data/tenant-tables";
import { deleteUpload, hasUpload, openUpload, ORPHAN_AFTER_MS, storeUpload, sweepUploads } from "./import-uploads";

/**
 * The event import's uploads in the store (both dialects): a file comes back byte for byte across
 * pieces, only to its own installation; what is refused (too large, empty, not UTF-8, cut short)
 * leaves nothing behind; uploads go when deleted, with the tenant's data, and when orphaned.
 */

warnIfPostgresSkipped("event import uploads");

const key = { openAppId: "app", tenantId: "t1" };
const other = { openAppId: "app", tenantId: "t2" };
const ID = "11111111-1111-4111-8111-111111111111";

/** A body in pieces of `size` bytes, as a request delivers it (pieces split characters). */
function bodyOf(bytes: Uint8Array, size = 1000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const csv = new TextEncoder().encode(
  "identityType,identityValue,event,date\r\n" + Array.from({ length: 2000 }, (_, i) => `crm,客户-${i},c_visit,2026-11-20 10:00:00`).join("\r\n"),
);
const bytesOf = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { status: (error as ApiError).status, code: (error as ApiError).code };
}

async function pieces(t: { store: Store }): Promise<number> {
  const row = await t.store.db.selectFrom("task_uploads").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  return Number(row?.n ?? 0);
}

describeEachDialect("event import uploads", (t) => {
  it("round-trips a file byte for byte across pieces, only for its own installation", async () => {
    const { size } = await storeUpload(t.store, key, ID, bodyOf(csv, 777), { piece: 4096, now: () => 1 });
    expect(size).toBe(csv.byteLength);
    expect(await pieces(t)).toBe(Math.ceil(csv.byteLength / 4096));
    expect(await bytesOf(openUpload(t.store, key, ID))).toEqual(csv);
    expect(await hasUpload(t.store, key, ID)).toBe(true);
    expect(await hasUpload(t.store, other, ID)).toBe(false);
    expect((await bytesOf(openUpload(t.store, other, ID))).byteLength).toBe(0);
    await deleteUpload(t.store, key, ID);
    expect(await pieces(t)).toBe(0);
  });

  it("refuses a file over the limit (by its declared length before reading, or as it passes the limit) and keeps nothing", async () => {
    expect(await refusal(storeUpload(t.store, key, ID, bodyOf(csv), { limit: 10_000, declaredBytes: 10_001 }))).toEqual({ status: 413, code: "payload_too_large" });
    expect(await refusal(storeUpload(t.store, key, ID, bodyOf(csv), { limit: 10_000, piece: 1024 }))).toEqual({ status: 413, code: "payload_too_large" });
    expect(await pieces(t)).toBe(0);
  });

  it("refuses an empty file, bytes that are not UTF-8 and a body cut short, with a 400 and nothing kept", async () => {
    expect(await refusal(storeUpload(t.store, key, ID, bodyOf(new Uint8Array())))).toEqual({ status: 400, code: "empty_file" });
    expect(await refusal(storeUpload(t.store, key, ID, null))).toEqual({ status: 400, code: "empty_file" });
    const latin1 = new Uint8Array([...csv.slice(0, 5000), 0xe9, 0x74, 0xe9, ...csv.slice(5000, 6000)]);
    expect(await refusal(storeUpload(t.store, key, ID, bodyOf(latin1), { piece: 1024 }))).toEqual({ status: 400, code: "not_utf8" });
    // A character cut at the very end is not UTF-8 either.
    expect(await refusal(storeUpload(t.store, key, ID, bodyOf(new TextEncoder().encode("a,客").slice(0, 4))))).toEqual({ status: 400, code: "not_utf8" });
    expect(await refusal(storeUpload(t.store, key, ID, bodyOf(csv), { declaredBytes: csv.byteLength + 10, piece: 1024 }))).toEqual({ status: 400, code: "incomplete_upload" });
    expect(await pieces(t)).toBe(0);
  });

  it("goes with the installation's data, the other tenant's upload staying", async () => {
    await storeUpload(t.store, key, ID, bodyOf(csv));
    await storeUpload(t.store, other, ID, bodyOf(csv));
    await deleteTenantRows(t.store, key);
    expect(await hasUpload(t.store, key, ID)).toBe(false);
    expect(await hasUpload(t.store, other, ID)).toBe(true);
  });

  it("the sweep drops old uploads nothing holds, and keeps held and recent ones", async () => {
    const held = "22222222-2222-4222-8222-222222222222";
    const recent = "33333333-3333-4333-8333-333333333333";
    await storeUpload(t.store, key, ID, bodyOf(csv), { now: () => 1000 });
    await storeUpload(t.store, key, held, bodyOf(csv), { now: () => 1000 });
    await storeUpload(t.store, key, recent, bodyOf(csv), { now: () => 1000 + ORPHAN_AFTER_MS });
    const dropped = await sweepUploads(t.store, 1001 + ORPHAN_AFTER_MS, async () => new Set([held]));
    expect(dropped).toBe(1);
    expect(await hasUpload(t.store, key, ID)).toBe(false);
    expect(await hasUpload(t.store, key, held)).toBe(true);
    expect(await hasUpload(t.store, key, recent)).toBe(true);
  });
});
