"use client";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { useActivityChanges, type ActivityChanges } from "./use-activity-changes";

/** On the Activity page: re-renders the list when new deliveries arrive and announces them politely. */
export function ActivityLiveRefresh({ openAppId, cursor }: { openAppId: string; cursor: string }) {
  const router = useRouter();
  const [message, setMessage] = useState("");
  const onChanges = useCallback(
    (changes: ActivityChanges) => {
      const n = changes.entries.length;
      setMessage(n === 1 ? "1 new delivery received." : `${n} new deliveries received.`);
      router.refresh();
    },
    [router],
  );
  useActivityChanges(openAppId, onChanges, cursor);
  return (
    <p role="status" aria-live="polite" className="sr-only">
      {message}
    </p>
  );
}
