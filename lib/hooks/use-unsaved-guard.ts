"use client";
import { useEffect, useRef } from "react";
import { registerUnsavedGuard } from "@/lib/api/reauth";

/**
 * While `dirty`, leaving asks first: a re-authorization prompts (`registerUnsavedGuard`) and a
 * reload or closing the tab gets the browser's own question (`beforeunload`).
 */
export function useUnsavedGuard(dirty: boolean): void {
  const ref = useRef(dirty);
  useEffect(() => {
    ref.current = dirty;
  }, [dirty]);
  useEffect(() => {
    const unregister = registerUnsavedGuard(() => ref.current);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (ref.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      unregister();
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
  }, []);
}
