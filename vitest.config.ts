import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Outside Next's server bundles `server-only` would throw; tests run server code directly.
      "server-only": path.resolve(import.meta.dirname, "scripts/testing/server-only-stub.ts"),
    },
  },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**", "scripts/bench/next-floor/**"],
    environment: "node",
    // Tests that check logging capture them (captureLogsForTests); the rest stay quiet.
    env: { LOG_LEVEL: "silent" },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
