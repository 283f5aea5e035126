import { serve, type ServerType } from "@hono/node-server";
import { createContext, createEnvironmentApp } from "./app";
import type { SandboxConfig } from "./config";
import { ensureBaseData, type SandboxContext } from "./context";
import { sandboxParts } from "./parts";

export type RunningSandbox = {
  ctx: SandboxContext;
  /** Base URL of each environment, by name. */
  urls: Record<string, string>;
  close(): Promise<void>;
};

function listen(app: ReturnType<typeof createEnvironmentApp>, host: string, port: number): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => resolve({ server, port: info.port }));
    server.once("error", reject);
  });
}

/**
 * Starts every environment of `config` on its port. Port 0 picks a free port (tests); the chosen
 * port is written back into the environment's config so that its origin stays right.
 */
export async function startSandbox(config: SandboxConfig): Promise<RunningSandbox> {
  const ctx = createContext(config);
  const servers: ServerType[] = [];
  const urls: Record<string, string> = {};
  try {
    for (const env of config.environments) {
      const { server, port } = await listen(createEnvironmentApp(ctx, env, sandboxParts), config.host, env.port);
      servers.push(server);
      // Handlers read `env` at request time, so a port picked by the OS shows in every origin.
      env.port = port;
      env.origin = `http://${config.host}:${port}`;
      urls[env.name] = env.origin;
    }
    ensureBaseData(ctx);
  } catch (error) {
    for (const s of servers) s.close();
    ctx.db.close();
    throw error;
  }
  return {
    ctx,
    urls,
    async close() {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      ctx.db.close();
    },
  };
}
