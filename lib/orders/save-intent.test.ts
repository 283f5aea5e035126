import { describe, expect, it } from "vitest";
import { createSaveIntent } from "./save-intent";

/** A read whose answer the test gives when it wants: no timing, no sleeps. */
function heldRead() {
  const calls: string[] = [];
  const answers: Array<(value: unknown) => void> = [];
  const read = (orderNo: string) => {
    calls.push(orderNo);
    return new Promise<unknown>((resolve) => answers.push(resolve));
  };
  return { read, calls, answer: (value: unknown) => answers.shift()!(value) };
}

describe("createSaveIntent: one order-number look-up per intent", () => {
  it("a second click while an intent runs is dropped, until the intent ends", () => {
    const changes: boolean[] = [];
    const intent = createSaveIntent((running) => changes.push(running));
    expect(intent.begin()).toBe(true);
    expect(intent.begin()).toBe(false);
    expect(intent.running).toBe(true);
    intent.end();
    expect(intent.running).toBe(false);
    expect(intent.begin()).toBe(true);
    expect(changes).toEqual([true, false, true]);
  });

  it("looks a number up once while its look-up is in flight, and both callers get the answer", async () => {
    const intent = createSaveIntent();
    const platform = heldRead();
    const first = intent.lookup(platform.read, "SO-1");
    const second = intent.lookup(platform.read, "SO-1");
    expect(platform.calls).toEqual(["SO-1"]);
    platform.answer({ orderNo: "SO-1", amountPaid: 599 });
    expect(await first).toEqual({ kind: "exists", order: { orderNo: "SO-1", amountPaid: 599 } });
    expect(await second).toBe(await first);
  });

  it("another number, or the same number once answered, is looked up again", async () => {
    const intent = createSaveIntent();
    const platform = heldRead();
    const a = intent.lookup(platform.read, "SO-1");
    const b = intent.lookup(platform.read, "SO-2");
    expect(platform.calls).toEqual(["SO-1", "SO-2"]);
    platform.answer(null);
    platform.answer(null);
    expect(await a).toEqual({ kind: "free" });
    expect(await b).toEqual({ kind: "free" });
    const again = intent.lookup(platform.read, "SO-1");
    expect(platform.calls).toEqual(["SO-1", "SO-2", "SO-1"]);
    platform.answer(null);
    await again;
  });
});
