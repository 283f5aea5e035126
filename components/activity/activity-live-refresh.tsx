"use client";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { useActivityChanges, type ActivityChanges } from "./use-activity-changes";

/** On the Activity page: re-renders the list when new deliveries arrive and announces them politely. */
export function ActivityLiveRefresh({
  openAppId,
  cursor,
  messages,
}: {
  openAppId: string;
  cursor: string;
  /** `manyNew` contains `{n}`. */
  messages: { oneNew: string; manyNew: string };
}) {
  const router = useRouter();
  const [message, setMessage] = useState("");
  const onChanges = useCallback(
    (changes: ActivityChanges) => {
      const n = changes.entries.length;
      setMessage(n === 1 ? messages.oneNew : messages.manyNew.replace("{n}", String(n)));
      router.refresh();
    },
    [router, messages],
  );
  useActivityChanges(openAppId, onChanges, cursor);
  return (
    <p role="status" aria-live="polite" className="sr-only">
      {message}
    </p>
  );
}
