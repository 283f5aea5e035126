import { expect, it } from "vitest";
import { describeEachDialect } from "@/lib/store/testing";
import type { TaskRecord } from "@/lib/tasks/task-types";
import { createSegment, markSynced, setSegmentList, updateSegment } from "./segment-store";
import { SEGMENT_SYNC, startSync, syncDueSegments, type TaskStarter } from "./segment-task";

const KEY = { openAppId: "app-a", tenantId: "1001" };
const HOUR = 3_600_000;

function fakeTasks() {
  const tasks: TaskRecord[] = [];
  const starter: TaskStarter = {
    async start(key, kind, input, actor) {
      const task = { id: `t${tasks.length + 1}`, openAppId: key.openAppId, tenantId: key.tenantId, kind, input, state: "queued", startedBy: actor } as unknown as TaskRecord;
      tasks.push(task);
      return { task, started: true };
    },
    async list() {
      return [...tasks].reverse();
    },
  };
  return { tasks, starter };
}

describeEachDialect("segment schedule", (t) => {
  it("starts the syncs that are due, once per segment while one is queued, none for a segment without a list or schedule", async () => {
    const now = 100 * HOUR;
    const hourly = await createSegment(t.store, KEY, { name: "H", definition: { match: "all", conditions: [] }, schedule: "hourly" }, { userId: "u", name: "U" }, 1);
    const daily = await createSegment(t.store, KEY, { name: "D", definition: { match: "all", conditions: [] }, schedule: "daily" }, { userId: "u", name: "U" }, 1);
    const noList = await createSegment(t.store, KEY, { name: "N", definition: { match: "all", conditions: [] }, schedule: "hourly" }, { userId: "u", name: "U" }, 1);
    const off = await createSegment(t.store, KEY, { name: "O", definition: { match: "all", conditions: [] } }, { userId: "u", name: "U" }, 1);
    for (const s of [hourly, daily, off]) await setSegmentList(t.store, KEY, s.id, { id: "77", name: "L" }, 1);
    await markSynced(t.store, KEY, hourly.id, now - 2 * HOUR);
    await markSynced(t.store, KEY, daily.id, now - 2 * HOUR);
    const { tasks, starter } = fakeTasks();
    expect(await syncDueSegments(t.store, starter, now)).toBe(1);
    expect(tasks.map((task) => (task.input as { segmentId: string }).segmentId)).toEqual([hourly.id]);
    expect(tasks[0]).toMatchObject({ kind: SEGMENT_SYNC, input: { segmentId: hourly.id, listId: "77", confirmEveryone: true } });
    // Queued still: the next tick starts no second one.
    expect(await syncDueSegments(t.store, starter, now + 60_000)).toBe(0);
    const again = await startSync(starter, KEY, { segmentId: hourly.id }, { userId: "u", name: "U" });
    expect(again.started).toBe(false);
    await updateSegment(t.store, KEY, noList.id, { schedule: "daily" }, 2);
    expect(tasks).toHaveLength(1);
  });
});
