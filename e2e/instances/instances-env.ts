/**
 * The settings of one run of the two-instance suite (playwright.instances.config.ts): which ports
 * the instances take (the two after the proxy's, E2E_APP_PORT), the PostgreSQL schema of the run
 * (fresh, `e2e_<random>`, kept in the environment so the test workers see the runner's) and each
 * instance's environment — the same secrets for both, as instances of one deployment share them.
 */
import { randomBytes } from "node:crypto";
import { appEnv, e2ePorts } from "../../scripts/testing/e2e-env";

const CI = process.env.CI === "true" || process.env.CI === "1";

export const SKIP_WITHOUT_POSTGRES =
  "SKIPPED: the two-instance suite needs PostgreSQL — set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it";

export type InstancesRun = {
  enabled: boolean;
  schema: string;
  instancePorts: [number, number];
  instanceUrls: [string, string];
  appEnv(port: number): Record<string, string>;
};

export function instancesRun(): InstancesRun {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && CI) throw new Error("TEST_DATABASE_URL is not set: with CI=true the two-instance suite must run");
  process.env.E2E_INSTANCES_SCHEMA ??= `e2e_${randomBytes(6).toString("hex")}`;
  const schema = process.env.E2E_INSTANCES_SCHEMA;
  // One deployment: both instances seal sessions and encrypt tokens with the same keys.
  process.env.E2E_SESSION_PASSWORD ??= randomBytes(32).toString("base64url");
  process.env.E2E_TOKEN_ENCRYPTION_KEY ??= `e2e:${randomBytes(32).toString("base64")}`;
  const shared = appEnv();
  const instancePorts: [number, number] = [e2ePorts.app + 1, e2ePorts.app + 2];
  return {
    enabled: Boolean(url),
    schema,
    instancePorts,
    instanceUrls: [`http://127.0.0.1:${instancePorts[0]}`, `http://127.0.0.1:${instancePorts[1]}`],
    appEnv: (port) => ({ ...shared, PORT: String(port), DATABASE_URL: url ?? "", DATABASE_SCHEMA: schema }),
  };
}
