/** Runs once when the server starts: invalid settings stop start-up with one clear message. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env, EnvError } = await import("@/lib/env");
  try {
    const settings = env();
    if (settings.webhook.mode === "none") {
      console.warn("WEBHOOK_AUTH_MODE=none: webhooks are accepted without authentication.");
    }
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
