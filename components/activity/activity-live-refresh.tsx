"use client";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useActivityChanges, type ActivityChanges } from "./use-activity-changes";

/** On the Activity page: re-renders the list when new deliveries arrive and announces them politely. */
export function ActivityLiveRefresh({ openAppId, cursor }: { openAppId: string; cursor: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const [message, setMessage] = useState("");
  const onChanges = useCallback(
    (changes: ActivityChanges) => {
      setMessage(t("activity.manyNew", { n: changes.entries.length }));
      router.refresh();
    },
    [router, t],
  );
  useActivityChanges(openAppId, onChanges, cursor);
  return (
    <p role="status" aria-live="polite" className="sr-only">
      {message}
    </p>
  );
}
