import { describe, expect, it } from "vitest";
import { translate } from "@/lib/i18n/messages";
import { formatNumber } from "@/lib/i18n/icu";
import { indexStatusSentence } from "./status-text";
import type { IndexStatus } from "./types";

const base: IndexStatus = { enabled: true, phase: "backfill", indexed: 14_200, total: 1_000_000, secondsLeft: 110, lastChangeAt: null, syncedAt: null, error: null };
const en = (status: IndexStatus, now = 100_000) => indexStatusSentence(status, now, (k, v) => translate("en", k, v), (n) => formatNumber(n, "en"));
const zh = (status: IndexStatus, now = 100_000) => indexStatusSentence(status, now, (k, v) => translate("zh-CN", k, v), (n) => formatNumber(n, "zh-CN"));

describe("index status sentence", () => {
  it("tells progress with the time left while the backfill runs", () => {
    expect(en(base)).toBe("Building the search index: 14,200 of 1,000,000 — about 2 min left.");
    expect(en({ ...base, secondsLeft: 12 })).toBe("Building the search index: 14,200 of 1,000,000 — about 12 s left.");
    expect(en({ ...base, secondsLeft: null })).toBe("Building the search index: 14,200 of 1,000,000.");
    expect(zh(base)).toBe("正在建立搜索索引：14,200 / 1,000,000，约剩 2 分钟。");
  });

  it("tells how long ago the last change was once up to date", () => {
    const ready: IndexStatus = { ...base, phase: "ready", lastChangeAt: 88_000 };
    expect(en(ready)).toBe("Search index up to date; last change 12 s ago.");
    expect(en(ready, 88_000 + 5 * 60_000)).toBe("Search index up to date; last change 5 min ago.");
    expect(en({ ...ready, lastChangeAt: null })).toBe("Search index up to date.");
    expect(zh(ready)).toBe("搜索索引已是最新；最近一次变更于12 秒前。");
  });

  it("says when the index is starting, switched off, or failing", () => {
    expect(en({ ...base, phase: "none", total: null })).toBe("The search index is being built; results will appear as it fills.");
    expect(en({ ...base, enabled: false })).toBe("Search index sync is switched off; results may be out of date.");
    expect(en({ ...base, error: "the platform could not be reached" })).toBe("The search index could not be updated: the platform could not be reached");
  });
});
