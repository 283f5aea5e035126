/** Runs once when the server starts (Node.js runtime only). */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { checkSettingsAtStartup, resumeRefreshesAtStartup } = await import("@/lib/startup");
    checkSettingsAtStartup();
    // Features subscribe to webhook topics and installation lifecycle events (lib/composition.ts).
    const { registerFeatures } = await import("@/lib/composition");
    registerFeatures();
    // Before Next sees a request: unknown methods 405, malformed paths 400 (lib/http/request-guard.ts).
    const { installRequestGuard } = await import("@/lib/http/node-request-guard");
    installRequestGuard();
    // A refresh left in flight by a killed instance is done again now, within the platform's grace.
    void resumeRefreshesAtStartup();
    // Background tasks: this instance takes their jobs, resumes those a dead instance left, runs schedules.
    if (process.env.NEXT_PHASE !== "phase-production-build") {
      const { startTaskRunner } = await import("@/lib/tasks");
      startTaskRunner();
    }
  }
}
