import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { addInBatches, type SendBatch } from "./batch-add";

/** A platform that, like the sandbox, refuses a whole batch when one customer does not exist. */
function platform(missing: Set<string>, calls: number[]): SendBatch {
  return async (items) => {
    calls.push(items.length);
    const bad = items.find((i) => missing.has(i.customerId));
    if (bad) throw new ApiError({ status: 404, code: "404", message: `customer ${bad.customerId} not found` });
    return { items: items.map((i) => ({ id: `m${i.customerId}`, customerId: i.customerId, listId: i.listId })) };
  };
}

describe("adding members in batches", () => {
  it("sends chunks of the given size and reports each id added", async () => {
    const calls: number[] = [];
    const progress: number[] = [];
    const ids = Array.from({ length: 1200 }, (_, i) => String(9007199254740993n + BigInt(i)));
    const results = await addInBatches("1", ids, platform(new Set(), calls), { chunkSize: 500, onProgress: (p) => progress.push(p.done) });
    expect(calls).toEqual([500, 500, 200]);
    expect(progress).toEqual([500, 1000, 1200]);
    expect(results.every((r) => r.status === "added")).toBe(true);
    expect(results[0]).toEqual({ customerId: "9007199254740993", status: "added", memberId: "m9007199254740993" });
  });
  it("isolates the ids the platform refuses, with its reason, and adds the rest", async () => {
    const results = await addInBatches("1", ["1", "2", "3", "4", "5"], platform(new Set(["2", "5"]), []), { chunkSize: 5 });
    expect(results.filter((r) => r.status === "added").map((r) => r.customerId).sort()).toEqual(["1", "3", "4"]);
    const failed = results.filter((r) => r.status === "failed");
    expect(failed.map((r) => [r.customerId, r.status === "failed" && r.reason])).toEqual([
      ["2", "customer 2 not found"],
      ["5", "customer 5 not found"],
    ]);
  });
  it("does not split on a transient failure", async () => {
    const calls: number[] = [];
    const send: SendBatch = async (items) => {
      calls.push(items.length);
      throw new ApiError({ status: 503, code: "upstream", message: "unavailable" });
    };
    const results = await addInBatches("1", ["1", "2", "3"], send, { chunkSize: 3 });
    expect(calls).toEqual([3]);
    expect(results.map((r) => r.status)).toEqual(["failed", "failed", "failed"]);
  });
  it("stops between chunks when aborted", async () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const results = await addInBatches("1", ["1", "2", "3"], platform(new Set(), calls), { chunkSize: 1, onProgress: () => controller.abort(), signal: controller.signal });
    expect(calls).toEqual([1]);
    expect(results).toHaveLength(1);
  });
});
