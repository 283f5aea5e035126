/**
 * The sandbox's fixed contract (ARCHITECTURE.md §3). Ports and the app URL can be moved with environment
 * variables so that several copies can run side by side in tests; the defaults are the contract.
 */
export type EnvironmentName = "alpha" | "beta";
/**
 * How an environment answers: `spec` as the Open API document says; `observed` as the real platform
 * does where the spec is silent or differs (sandbox/observed.ts, README "Profiles").
 */
export type SandboxProfile = "spec" | "observed";

export const isObserved = (env: Pick<EnvironmentConfig, "profile"> | undefined): boolean => env?.profile === "observed";

export type EnvironmentConfig = {
  name: EnvironmentName;
  port: number;
  /** Used as both authDomain and apiDomain of this environment (§5.4). */
  origin: string;
  openAppId: string;
  productType: string;
  productVersion: string;
  tenant: { id: number; name: string };
  profile: SandboxProfile;
  staff: { id: number; email: string; password: string; name: string };
  /** Further demo staff of the tenant (the admin above is the first). */
  moreStaff?: Array<{ id: number; email: string; password: string; name: string }>;
};

export type AppRegistration = {
  clientId: string;
  clientSecret: string;
  /** The registered authorization callback; `redirect_uri` must begin with it (§5.2.3). */
  callbackUrl: string;
  appId: string;
  name: string;
};

export type SandboxConfig = {
  host: string;
  environments: EnvironmentConfig[];
  app: AppRegistration;
  /** SQLite file, or ":memory:". */
  dbFile: string;
  /** In production mode the control plane (`/__sandbox/*`) refuses every call. */
  production: boolean;
};

function port(value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid port: ${value}`);
  return n;
}

function profile(value: string | undefined, fallback: SandboxProfile, name: string): SandboxProfile {
  const chosen = value?.trim() || fallback;
  if (chosen !== "spec" && chosen !== "observed") throw new Error(`${name} must be "spec" or "observed", not ${JSON.stringify(value)}`);
  return chosen;
}

export function loadSandboxConfig(source: Record<string, string | undefined> = process.env): SandboxConfig {
  const host = source.SANDBOX_HOST ?? "127.0.0.1";
  const alphaPort = port(source.SANDBOX_ALPHA_PORT, 4000);
  const betaPort = port(source.SANDBOX_BETA_PORT, 4001);
  const appUrl = (source.SANDBOX_APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const environment = (name: EnvironmentName, envPort: number, details: Pick<EnvironmentConfig, "openAppId" | "productVersion" | "tenant" | "staff" | "moreStaff" | "profile">): EnvironmentConfig => ({
    name,
    port: envPort,
    origin: `http://${host}:${envPort}`,
    productType: "cep-cloud",
    ...details,
  });
  return {
    host,
    environments: [
      environment("alpha", alphaPort, {
        openAppId: "oa-alpha-7f3c9e21",
        profile: profile(source.SANDBOX_ALPHA_PROFILE, "spec", "SANDBOX_ALPHA_PROFILE"),
        productVersion: "5.12.0",
        tenant: { id: 80000000001, name: "Alpha Retail 阿尔法零售" },
        staff: { id: 90000000001, email: "admin@alpha.test", password: "sandbox", name: "Alice Admin 王丽" },
      }),
      environment("beta", betaPort, {
        openAppId: "oa-beta-2d81b6a4",
        // The real platform's behaviour by default, so that `npm run dev` and the e2e suite meet both.
        profile: profile(source.SANDBOX_BETA_PROFILE, "observed", "SANDBOX_BETA_PROFILE"),
        productVersion: "5.13.1",
        tenant: { id: 80000000002, name: "Beta Foods 贝塔食品" },
        staff: { id: 90000000002, email: "admin@beta.test", password: "sandbox", name: "Bob Admin 李博" },
        // A second person of the same tenant: beta's users/current sends no id, so the app tells staff
        // apart by their login (README "Staff without a user id").
        moreStaff: [{ id: 90000000003, email: "carol@beta.test", password: "sandbox", name: "Carol Clerk 陈洁" }],
      }),
    ],
    app: {
      clientId: "engage-console",
      clientSecret: "sandbox-secret",
      callbackUrl: `${appUrl}/api/auth/callback`,
      appId: "engage-console",
      name: "Engage Console",
    },
    dbFile: source.SANDBOX_DB ?? ".data/sandbox.sqlite",
    production: source.SANDBOX_MODE === "production",
  };
}

/** The alpha environment also hosts the extension service (§4.7 cloudinfo). */
export function extensionUrl(config: SandboxConfig): string {
  return `${config.environments[0]!.origin}/extension`;
}
