import { loadSandboxConfig, extensionUrl } from "./config";
import { seedSandbox } from "./seed/seed";
import { startSandbox } from "./server";

/** `npm run sandbox [-- --seed N]`: the Platform Sandbox on its own. */
async function main() {
  const args = process.argv.slice(2);
  // --seed N: seed N customers now; --seed-if-empty N: only when the sandbox holds no customers yet.
  const flag = args.find((a) => a === "--seed" || a === "--seed-if-empty");
  const seedCount = flag ? Number(args[args.indexOf(flag) + 1]) : undefined;
  if (seedCount !== undefined && (!Number.isInteger(seedCount) || seedCount < 0)) {
    console.error(`${flag} takes a whole number of customers, e.g. ${flag} 10000`);
    process.exit(2);
  }
  const config = loadSandboxConfig();
  let sandbox;
  try {
    sandbox = await startSandbox(config);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { port?: number };
    if (e.code === "EADDRINUSE") {
      console.error(`Platform Sandbox: port ${e.port ?? ""} is already in use. Stop whatever runs there (another sandbox?) or set SANDBOX_ALPHA_PORT / SANDBOX_BETA_PORT.`);
      process.exit(1);
    }
    throw error;
  }
  if (seedCount !== undefined) {
    console.log(`[sandbox] ${flag} ${seedCount}: seeding…`);
    const summary = seedSandbox(sandbox.ctx, { customers: seedCount, ifEmpty: flag === "--seed-if-empty", log: (line) => console.log(`[sandbox] seed ${line}`) });
    const done = summary.tenants.map((t) => `${t.environment} ${t.skipped ? "kept" : `${t.customers} customers`}`).join(", ");
    console.log(`[sandbox] seeded in ${(summary.ms / 1000).toFixed(1)} s: ${done}`);
  }
  for (const env of config.environments) console.log(`[sandbox] ${env.name.padEnd(5)} ${env.origin}  (openAppId ${env.openAppId}; profile ${env.profile}; admin login ${env.staff.email} / ${env.staff.password})`);
  console.log(`[sandbox] extension service ${extensionUrl(config)}`);
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
