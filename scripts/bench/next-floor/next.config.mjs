import path from "node:path";

/**
 * The bench-only floor app (scripts/bench/proxy.ts): Next with nothing but one pass-through route.
 * It resolves `next`, `react` and `undici` from the repository's node_modules, three folders up.
 * Its files end in `.floor.ts` (pageExtensions): Turbopack also looks for `proxy.ts` and
 * `instrumentation.ts` in the folders above and would take the bench script and the app's hook.
 */
const root = path.resolve(import.meta.dirname, "../../..");

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  pageExtensions: ["floor.ts"],
  turbopack: { root },
  outputFileTracingRoot: root,
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default nextConfig;
