import type { SandboxContext } from "../context";

/** Switches of the authorization server, changed with `POST /__sandbox/config`; reset restores them. */
export type AuthSettings = {
  /** On (default): a refresh grant returns a new refresh token and the used one stops working. */
  refreshRotation: boolean;
};

const DEFAULTS: AuthSettings = { refreshRotation: true };
const byContext = new WeakMap<SandboxContext, AuthSettings>();

export function authSettings(ctx: SandboxContext): AuthSettings {
  let settings = byContext.get(ctx);
  if (!settings) {
    const created: AuthSettings = { ...DEFAULTS };
    settings = created;
    byContext.set(ctx, created);
    ctx.onReset.push(() => Object.assign(created, DEFAULTS));
  }
  return settings;
}
