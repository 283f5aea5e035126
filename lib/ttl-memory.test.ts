import { describe, expect, it } from "vitest";
import { sharedLookups, TtlMemory } from "./ttl-memory";

describe("TtlMemory", () => {
  it("remembers a value until its time, not at or after it", () => {
    const memory = new TtlMemory<string>(10);
    memory.set("a", "x", 1_000);
    expect(memory.get("a", 999)).toBe("x");
    expect(memory.get("a", 1_000)).toBeUndefined();
    expect(memory.size).toBe(0);
  });

  it("keeps at most maxEntries, dropping the oldest written", () => {
    const memory = new TtlMemory<number>(2);
    memory.set("a", 1, 100);
    memory.set("b", 2, 100);
    memory.set("a", 3, 100); // rewritten: now the newest
    memory.set("c", 4, 100);
    expect([memory.get("a", 0), memory.get("b", 0), memory.get("c", 0)]).toEqual([3, undefined, 4]);
  });
});

describe("sharedLookups", () => {
  it("shares a running look-up of a key, and starts anew once it settled", async () => {
    const shared = sharedLookups<number>();
    let calls = 0;
    let release!: (value: number) => void;
    const lookup = () => {
      calls += 1;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const first = shared("k", lookup);
    const second = shared("k", lookup);
    expect(calls).toBe(1);
    release(7);
    await expect(Promise.all([first, second])).resolves.toEqual([7, 7]);
    void shared("k", lookup);
    expect(calls).toBe(2);
  });

  it("shares a failure too, and does not keep it", async () => {
    const shared = sharedLookups<number>();
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error("down");
    };
    await expect(Promise.all([shared("k", failing), shared("k", failing)])).rejects.toThrow("down");
    expect(calls).toBe(1);
    await expect(shared("k", async () => 1)).resolves.toBe(1);
  });
});
