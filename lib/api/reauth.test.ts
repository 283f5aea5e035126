import { afterEach, describe, expect, it, vi } from "vitest";
import { followReauth, REAUTH_GUARD_KEY, reauthPrompt, reauthTarget, registerUnsavedGuard, resetReauthNavigation } from "./reauth";

const here = { origin: "http://localhost:3000", pathname: "/customers", search: "?openAppId=oa&stage=lead" };

function deps(storage: Record<string, string> = {}, now = 100_000) {
  const assign = vi.fn();
  const data = new Map(Object.entries(storage));
  return {
    assign,
    data,
    deps: {
      location: { ...here, assign },
      storage: { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) },
      now: () => now,
      unsaved: () => false,
    },
  };
}

afterEach(() => {
  reauthPrompt.set(null);
  resetReauthNavigation();
});

describe("reauthTarget (§5.2.9)", () => {
  it("adds returnTo = the current page", () => {
    expect(reauthTarget("/api/auth/start?openAppId=oa", here)).toBe(
      "/api/auth/start?openAppId=oa&returnTo=%2Fcustomers%3FopenAppId%3Doa%26stage%3Dlead",
    );
  });

  it("keeps a returnTo the server chose", () => {
    expect(reauthTarget("/api/auth/start?returnTo=%2Fsettings", here)).toBe("/api/auth/start?returnTo=%2Fsettings");
  });

  it("refuses anything that is not a path of this origin", () => {
    for (const bad of ["https://evil.test/x", "//evil.test/x", "/\\evil.test", "javascript:alert(1)", ""]) {
      expect(reauthTarget(bad, here), bad).toBeUndefined();
    }
  });
});

describe("followReauth", () => {
  it("navigates and records when it did", () => {
    const { deps: d, assign, data } = deps();
    expect(followReauth("/api/auth/start?openAppId=oa", d)).toBe("navigated");
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign.mock.calls[0]![0]).toMatch(/^\/api\/auth\/start\?openAppId=oa&returnTo=/);
    expect(data.get(REAUTH_GUARD_KEY)).toBe("100000");
  });

  it("navigates once when several calls fail together, without a loop prompt", () => {
    const { deps: d, assign } = deps();
    expect(followReauth("/api/auth/start", d)).toBe("navigated");
    expect(followReauth("/api/auth/start", d)).toBe("navigated");
    expect(assign).toHaveBeenCalledTimes(1);
    expect(reauthPrompt.get()).toBeNull();
  });

  it("prompts instead of looping when it navigated moments ago", () => {
    const { deps: d, assign } = deps({ [REAUTH_GUARD_KEY]: String(100_000 - 5_000) });
    expect(followReauth("/api/auth/start", d)).toBe("prompted");
    expect(assign).not.toHaveBeenCalled();
    expect(reauthPrompt.get()).toMatchObject({ reason: "loop" });
  });

  it("navigates again once the loop window has passed", () => {
    const { deps: d, assign } = deps({ [REAUTH_GUARD_KEY]: String(100_000 - 60_000) });
    expect(followReauth("/api/auth/start", d)).toBe("navigated");
    expect(assign).toHaveBeenCalled();
  });

  it("prompts when a form has unsaved changes", () => {
    const { deps: d, assign } = deps();
    let dirty = true;
    const unregister = registerUnsavedGuard(() => dirty);
    const withGuards = { ...d, unsaved: undefined };
    expect(followReauth("/api/auth/start", withGuards)).toBe("prompted");
    expect(reauthPrompt.get()).toMatchObject({ reason: "unsaved" });
    dirty = false;
    expect(followReauth("/api/auth/start", withGuards)).toBe("navigated");
    unregister();
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("refuses a foreign redirect without navigating", () => {
    const { deps: d, assign } = deps();
    expect(followReauth("https://evil.test/", d)).toBe("refused");
    expect(assign).not.toHaveBeenCalled();
  });
});
