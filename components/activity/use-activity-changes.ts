"use client";
import { useEffect, useRef } from "react";
import { ApiError } from "@/lib/http/api-error";
import { createAppCall } from "@/lib/api/browser-fetch";

export type ActivityChanges = {
  entries: Array<{ id: string; kind: string; resource?: string; resourceId?: string; action?: string }>;
  cursor: string;
  staleQueryKeys: Array<readonly [string, ...string[]]>;
};

const POLL_MS = 10_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * Polls the app route `activity.list` (`after` = the cursor) while the page is visible and calls `onChanges` with each
 * non-empty batch of webhook deliveries (the console's way to learn what the platform changed).
 * Starts at `initialCursor`, or at "now" when none is given. Stops on 401 (the shell's re-authorize
 * prompt handles that) and backs off after errors.
 */
export function useActivityChanges(openAppId: string | undefined, onChanges: (changes: ActivityChanges) => void, initialCursor?: string): void {
  const callback = useRef(onChanges);
  useEffect(() => {
    callback.current = onChanges;
  }, [onChanges]);

  useEffect(() => {
    let cursor = initialCursor;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = POLL_MS;
    const controller = new AbortController();
    // The shell's re-authorize prompt handles a lost session: the poller only stops.
    const call = createAppCall({ openAppId: () => openAppId, onReauth: () => {} });

    async function poll(): Promise<void> {
      if (stopped) return;
      if (document.visibilityState === "hidden") return schedule(POLL_MS);
      try {
        const changes: ActivityChanges = await call("activity.list", { query: { after: cursor } }, { signal: controller.signal });
        const first = cursor === undefined;
        cursor = changes.cursor;
        delay = POLL_MS;
        if (!first && changes.entries.length > 0) callback.current(changes);
        // A full page may have more behind it: fetch the next one at once.
        return schedule(changes.entries.length >= 50 ? 0 : POLL_MS);
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 401) return; // signed out: polling stops until the page is loaded again
        delay = Math.min(delay * 2, MAX_BACKOFF_MS);
        return schedule(delay);
      }
    }

    function schedule(ms: number): void {
      if (!stopped) timer = setTimeout(() => void poll(), ms);
    }

    schedule(initialCursor === undefined ? 0 : POLL_MS);
    return () => {
      stopped = true;
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [openAppId, initialCursor]);
}
