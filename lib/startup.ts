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
