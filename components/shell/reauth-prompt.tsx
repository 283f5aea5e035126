"use client";
import { useState, useSyncExternalStore } from "react";
import { reauthPrompt } from "@/lib/api/reauth";
import { clientOnly } from "@/components/ui/client-only";

// Most visits never need the dialog, and the shell is JavaScript every console route loads first: its
// code comes the first time a prompt is raised.
const ReauthDialog = clientOnly(() => import("./reauth-dialog").then((m) => m.default));

/**
 * The re-authorize prompt (§5.2.9): shown when following the redirect at once would lose unsaved
 * work, or when authorization did not stick (the installation may be `reauth_required`). Once
 * loaded the dialog stays mounted, so closing it hands focus back as a native dialog does.
 */
export function ReauthPrompt() {
  const prompt = useSyncExternalStore(reauthPrompt.subscribe, reauthPrompt.get, () => null);
  const [needed, setNeeded] = useState(false);
  if (prompt !== null && !needed) setNeeded(true);
  if (!needed) return null;
  return <ReauthDialog prompt={prompt} />;
}
