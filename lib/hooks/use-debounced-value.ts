"use client";
import { useEffect, useState } from "react";

/** `value`, settled: it changes only after `delayMs` without a new value (typing in a filter). */
export function useDebouncedValue<T>(value: T, delayMs = 350): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
