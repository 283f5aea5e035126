import type { SandboxContext } from "../context";

/**
 * Switches of the authorization server: start values from the environment
 * (`SANDBOX_REFRESH_ROTATION=false` turns rotation off), changed at run time with
 * `POST /__sandbox/config`; reset restores the start values.
 */
export type AuthSettings = {
  /** On (default): a refresh grant returns a new refresh token and the used one stops working. */
  refreshRotation: boolean;
  /**
   * Seconds during which a rotated (used) refresh token still works once more, as many OAuth servers
   * offer for a client that lost the answer (0, the default: never). `SANDBOX_REFRESH_GRACE_SECONDS`.
   */
  refreshGraceSeconds: number;
};

export function initialAuthSettings(source: Record<string, string | undefined> = process.env): AuthSettings {
  const grace = Number(source.SANDBOX_REFRESH_GRACE_SECONDS ?? 0);
  return { refreshRotation: source.SANDBOX_REFRESH_ROTATION !== "false", refreshGraceSeconds: Number.isInteger(grace) && grace > 0 && grace <= 86_400 ? grace : 0 };
}

const byContext = new WeakMap<SandboxContext, AuthSettings>();

export function authSettings(ctx: SandboxContext): AuthSettings {
  let settings = byContext.get(ctx);
  if (!settings) {
    const initial = initialAuthSettings();
    const created: AuthSettings = { ...initial };
    settings = created;
    byContext.set(ctx, created);
    ctx.onReset.push(() => Object.assign(created, initial));
  }
  return settings;
}
