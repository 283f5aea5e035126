"use client";
import { useEffect, useState } from "react";

/**
 * True only once `flag` has stayed true for `delayMs`: a loading indicator that does not flash
 * for fast answers (ARCHITECTURE.md §5).
 */
export function useDelayedFlag(flag: boolean, delayMs = 300): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!flag) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [flag, delayMs]);
  return flag && shown;
}
