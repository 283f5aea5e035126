import type { JobQueue, QueueDefinition, SendOptions } from "./queue";

type Entry = { data: unknown; key: string | undefined };

type Lane = { definition: QueueDefinition<unknown>; waiting: Entry[]; active: number; activeKeys: Set<string> };

/**
 * The job queue of one process (the embedded SQLite default: one process serves everything).
 * Jobs are not persisted: what must survive a restart is the work's own state (the sync stores
 * its cursor after every page and is sent again on the next use).
 */
export function inProcessQueue(options: { onError?: (name: string, error: unknown) => void } = {}): JobQueue {
  const lanes = new Map<string, Lane>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const pump = (lane: Lane) => {
    const limit = lane.definition.concurrency ?? 1;
    for (let i = 0; i < lane.waiting.length && lane.active < limit; ) {
      const entry = lane.waiting[i]!;
      if (entry.key !== undefined && lane.activeKeys.has(entry.key)) {
        i++;
        continue;
      }
      lane.waiting.splice(i, 1);
      lane.active++;
      if (entry.key !== undefined) lane.activeKeys.add(entry.key);
      const self: { run?: Promise<void> } = {};
      self.run = (async () => {
        await Promise.resolve(); // `self.run` is assigned before the job's own code runs
        try {
          await lane.definition.handler(entry.data);
        } catch (error) {
          options.onError?.(lane.definition.name, error);
        } finally {
          lane.active--;
          if (entry.key !== undefined) lane.activeKeys.delete(entry.key);
          if (self.run) running.delete(self.run);
          if (!stopped) pump(lane);
        }
      })();
      running.add(self.run);
    }
  };

  return {
    kind: "in-process",
    async define(definition) {
      if (!lanes.has(definition.name)) lanes.set(definition.name, { definition: definition as QueueDefinition<unknown>, waiting: [], active: 0, activeKeys: new Set() });
    },
    async send(name, data, sendOptions: SendOptions = {}) {
      const lane = lanes.get(name);
      if (!lane) throw new Error(`no job queue named ${name}`);
      if (stopped) return false;
      const key = sendOptions.singletonKey;
      if (lane.definition.policy === "stately" && key !== undefined && lane.waiting.some((e) => e.key === key)) return false;
      const enqueue = () => {
        if (stopped) return;
        lane.waiting.push({ data, key: lane.definition.policy === "stately" ? key : undefined });
        pump(lane);
      };
      if (sendOptions.startAfterSeconds) setTimeout(enqueue, sendOptions.startAfterSeconds * 1000).unref?.();
      else enqueue();
      return true;
    },
    async idle() {
      while (running.size > 0 || [...lanes.values()].some((l) => l.waiting.length > 0)) {
        await Promise.allSettled([...running]);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async stop() {
      stopped = true;
      for (const lane of lanes.values()) lane.waiting.length = 0;
      await Promise.allSettled([...running]);
    },
  };
}
