"use client";
import { DropAuthorizedMark, KeepFallbackSessionAlive } from "@/components/auth/session-marks";
import { WebhookQueryInvalidator } from "@/components/activity/webhook-query-invalidator";
import { Toaster } from "@/components/ui/toaster";
import { LeaveGuard } from "./leave-guard";

/**
 * The shell's parts that draw nothing at first paint, only effects and the toasts that later calls
 * raise (the store keeps any raised before): the unsaved-changes guard, the address and fallback
 * session upkeep, the webhook-driven refresh. Loaded after the page (`clientOnly` in
 * console-shell.tsx), since every console route would otherwise load them first.
 */
export default function ShellServices({ openAppId }: { openAppId: string | undefined }) {
  return (
    <>
      <LeaveGuard />
      <DropAuthorizedMark />
      <KeepFallbackSessionAlive openAppId={openAppId} />
      <WebhookQueryInvalidator openAppId={openAppId} />
      <Toaster />
    </>
  );
}
