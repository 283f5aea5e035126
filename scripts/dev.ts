import { spawn, type ChildProcess } from "node:child_process";
import { appDevEnv, devPorts, devUrls, sandboxDevEnv } from "./dev-env";
import { portInUse, waitForHttp } from "./ports";

/**
 * `npm run dev`: the Platform Sandbox and `next dev` together, with no configuration. Ctrl-C stops
 * both; if either exits, the other is stopped too. `PORT`, `SANDBOX_ALPHA_PORT` and `SANDBOX_BETA_PORT`
 * move the three servers, and every address between them moves along (dev-env.ts).
 */
const PORTS = (() => {
  try {
    return devPorts(process.env);
  } catch (error) {
    console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}.`);
    process.exit(1);
  }
})();
const APP_PORT = PORTS.app;
const ALPHA_PORT = PORTS.alpha;
const BETA_PORT = PORTS.beta;
/** Loopback only unless HOST says otherwise: a development server is nobody else's business. */
const HOST = process.env.HOST ?? "127.0.0.1";

const children: ChildProcess[] = [];
let stopping = false;

function run(name: string, command: string, args: string[], extraEnv: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...extraEnv, FORCE_COLOR: "1" } });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`\n${name} stopped (${signal ?? `exit ${code}`}); stopping the rest.`);
    stop(code ?? 1);
  });
  children.push(child);
  return child;
}

function stop(code = 0): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 1500).unref();
}

async function main() {
  const taken: string[] = [];
  for (const [what, port] of [
    ["the app", APP_PORT],
    ["sandbox alpha", ALPHA_PORT],
    ["sandbox beta", BETA_PORT],
  ] as const) {
    if (await portInUse(port)) taken.push(`port ${port} (${what}) is already in use`);
  }
  if (taken.length > 0) {
    console.error(`Cannot start: ${taken.join("; ")}.\nStop the other process (an earlier \`npm run dev\`?) and try again.`);
    process.exit(1);
  }

  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));

  run("sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts", "--seed-if-empty", "10000"], sandboxDevEnv(process.env));
  run("next dev", process.execPath, ["node_modules/next/dist/bin/next", "dev", "--hostname", HOST, "--port", String(APP_PORT)], appDevEnv(process.env));

  const { alpha, beta, app } = devUrls(PORTS, process.env);
  await Promise.all([waitForHttp(`${alpha}/health`, 120_000), waitForHttp(`http://127.0.0.1:${APP_PORT}/api/health`, 120_000)]);
  console.log(`
  Engage Console is running.

    Platform admin (alpha)  ${alpha}/       log in as admin@alpha.test / sandbox
    Platform admin (beta)   ${beta}/       log in as admin@beta.test / sandbox
    Marketplace             ${alpha}/application/mktapp/index.html?install=engage-console#/market
    The app                 ${app}/

  Install the app from the marketplace, then Open it. Ctrl-C stops everything.
`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stop(1);
});
