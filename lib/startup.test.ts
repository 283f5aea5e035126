import { afterEach, describe, expect, it, vi } from "vitest";
import { resumeRefreshesAtStartup } from "./startup";

describe("resumeRefreshesAtStartup", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("resumes at once when the server starts, and a failure never stops start-up", async () => {
    const resume = vi.fn(async () => ({ found: 1 }));
    await resumeRefreshesAtStartup(resume);
    expect(resume).toHaveBeenCalledTimes(1);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(resumeRefreshesAtStartup(async () => Promise.reject(new Error("platform down")))).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith(expect.stringContaining("platform down"));
  });

  it("does nothing while Next builds (no store, no platform then)", async () => {
    vi.stubEnv("NEXT_PHASE", "phase-production-build");
    const resume = vi.fn(async () => undefined);
    await resumeRefreshesAtStartup(resume);
    expect(resume).not.toHaveBeenCalled();
  });
});
