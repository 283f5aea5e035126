import { describe, expect, it } from "vitest";
import type { InboxDelivery } from "@/lib/store/webhook-inbox";
import { createTopicRegistry, topicOf, WEBHOOK_TOPICS, type WebhookEvent } from "./topics";

const delivery: InboxDelivery = { openAppId: "oa", tenantId: "1", dedupeKey: "id:d1", deliveryId: "d1", kind: "tag.merged", resource: "tag", action: "merged", resourceId: "9007199254740993", verification: "secret", payload: "{}" };
const event = (topic = "tag.merged"): WebhookEvent => ({ topic, delivery, data: { fromId: 9007199254740995n } });

function recordingLog() {
  const warnings: Array<Record<string, unknown>> = [];
  return { warnings, log: { warn: (obj: object) => void warnings.push(obj as Record<string, unknown>) } };
}

describe("webhook topic registry", () => {
  it("runs every handler of the topic, only those, with the event as parsed", async () => {
    const registry = createTopicRegistry();
    const seen: string[] = [];
    registry.on(["tag.merged", "tag.deleted"], "a", async (e) => void seen.push(`a:${e.topic}:${String(e.data.fromId)}`));
    registry.on(["tag.merged"], "b", async (e) => void seen.push(`b:${e.topic}`));
    registry.on(["customer.created"], "c", async () => void seen.push("c"));
    await registry.dispatch(event());
    expect(seen.sort()).toEqual(["a:tag.merged:9007199254740995", "b:tag.merged"]);
    await registry.dispatch(event("no.such"));
    expect(seen).toHaveLength(2);
    expect(registry.subscribers().map((x) => `${x.topic} ${x.feature}`).sort()).toEqual(["customer.created c", "tag.deleted a", "tag.merged a", "tag.merged b"]);
  });

  it("isolates a failing handler (rejecting or throwing): the others run, dispatch resolves, the failure is logged with its feature", async () => {
    const registry = createTopicRegistry();
    const seen: string[] = [];
    registry.on(["tag.merged"], "rejects", () => Promise.reject(new Error("index down")));
    registry.on(["tag.merged"], "throws", () => {
      throw new Error("sync throw");
    });
    registry.on(["tag.merged"], "works", async () => void seen.push("works"));
    const { warnings, log } = recordingLog();
    await expect(registry.dispatch(event(), log)).resolves.toBeUndefined();
    expect(seen).toEqual(["works"]);
    expect(warnings.map((w) => [w.feature, w.topic, w.deliveryId, w.err]).sort()).toEqual([
      ["rejects", "tag.merged", "d1", "index down"],
      ["throws", "tag.merged", "d1", "sync throw"],
    ]);
  });

  it("names a delivery's topic <resource>.<action>, else by its event; the sandbox's topics are known", () => {
    expect(topicOf({ kind: "x", resource: "customerTag", action: "added" })).toBe("customerTag.added");
    expect(topicOf({ kind: "customer.updated" })).toBe("customer.updated");
    expect(WEBHOOK_TOPICS).toEqual(expect.arrayContaining(["customer.merged", "customerTag.added", "tag.updated", "tag.merged", "tag.deleted", "listMember.added", "listMember.removed"]));
  });
});
