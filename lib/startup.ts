import "server-only";
import { env, EnvError } from "@/lib/env";

/** Invalid settings stop start-up with one message that names each problem. */
export function checkSettingsAtStartup(): void {
  try {
    const settings = env();
    if (settings.webhook.mode === "none") {
      console.warn("WEBHOOK_AUTH_MODE=none: platform webhooks are accepted without authentication.");
    }
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Resumes, at once, the token refreshes an instance left in flight when it died (lib/auth/
 * access-token.ts `resumeInterruptedRefreshes`), while the platform's rotation grace may still
 * accept the stored refresh token. Not awaited by start-up: a platform that does not answer must
 * not hold the server back; a failure is logged and the next request refreshes as usual.
 */
export async function resumeRefreshesAtStartup(
  resume: () => Promise<unknown> = async () => (await import("@/lib/auth/access-token")).resumeInterruptedRefreshes(),
): Promise<void> {
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  try {
    await resume();
  } catch (error) {
    console.error(`Resuming interrupted token refreshes failed: ${(error as Error)?.message ?? String(error)}`);
  }
}
