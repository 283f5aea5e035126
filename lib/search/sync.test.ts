import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform/errors";
import { patient, REFUSAL_WAITS } from "./sync";

const refusal = (retryAfterSeconds?: number) => new PlatformError({ kind: "rate_limited", code: "429", message: "slow down", httpStatus: 429, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });

function failing(times: number, error: () => unknown) {
  let calls = 0;
  return {
    fn: async () => {
      calls += 1;
      if (calls <= times) throw error();
      return "ok";
    },
    calls: () => calls,
  };
}

describe("the sync waits out refusals with the one backoff rule", () => {
  it("doubles from 1 s to a minute (no chance drawn), then gives up", async () => {
    const waits: number[] = [];
    const call = failing(Infinity, () => refusal());
    await expect(patient({ sleep: async (ms) => void waits.push(ms), random: () => 1 }, call.fn)).rejects.toBeInstanceOf(PlatformError);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    expect(call.calls()).toBe(REFUSAL_WAITS + 1);
  });

  it("leaves half of each wait to chance", async () => {
    const waits: number[] = [];
    await patient({ sleep: async (ms) => void waits.push(ms), random: () => 0 }, failing(3, () => refusal()).fn);
    expect(waits).toEqual([500, 1_000, 2_000]);
  });

  it("takes Retry-After as the floor, a minute at most", async () => {
    const waits: number[] = [];
    await patient({ sleep: async (ms) => void waits.push(ms), random: () => 0 }, failing(2, () => refusal(5)).fn);
    expect(waits).toEqual([5_000, 5_000]);
    const long: number[] = [];
    await patient({ sleep: async (ms) => void long.push(ms), random: () => 0 }, failing(1, () => refusal(3_600)).fn);
    expect(long).toEqual([60_000]);
  });

  it("does not wait on other failures", async () => {
    const waits: number[] = [];
    const call = failing(1, () => new PlatformError({ kind: "validation", code: "400001", message: "bad", httpStatus: 422 }));
    await expect(patient({ sleep: async (ms) => void waits.push(ms) }, call.fn)).rejects.toBeInstanceOf(PlatformError);
    expect(waits).toEqual([]);
    expect(call.calls()).toBe(1);
  });
});
