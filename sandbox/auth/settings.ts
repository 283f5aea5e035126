import type { SandboxContext } from "../context";

/**
 * Switches of the authorization server: start values from the environment
 * (`SANDBOX_REFRESH_ROTATION=false` turns rotation off), changed at run time with
 * `POST /__sandbox/config`; reset restores the start values.
 */
export type AuthSettings = {
  /** On (default): a refresh grant returns a new refresh token and the used one stops working. */
  refreshRotation: boolean;
};

export function initialAuthSettings(source: Record<string, string | undefined> = process.env): AuthSettings {
  return { refreshRotation: source.SANDBOX_REFRESH_ROTATION !== "false" };
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
