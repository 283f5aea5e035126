import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// nuqs comes through the `#nuqs` import map only (nuqs/server for the server, nuqs in the browser):
// importing both would put a second copy of it in the browser; the hook is its one client user.
const nuqsPaths = [
  { name: "nuqs/server", message: "Import parsers from #nuqs." },
  { name: "nuqs", message: "Import parsers from #nuqs; the URL-state hook is lib/hooks/use-url-state.ts.", allowTypeImports: true },
];

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "scripts/bench/next-floor/**"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["app/**", "lib/**"],
    ignores: ["lib/hooks/use-url-state.ts"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { paths: nuqsPaths }] },
  },
  {
    // Browser code must not import, as a value, what would put every language or every zod schema
    // into the first-load bundle; types are free. (Server pages and route handlers may.)
    files: ["components/**", "lib/{api,hooks,forms,ui,batch,customers,lists,tags,orders,events,activity,shell}/**", "lib/search/{search-queries,types}.ts"],
    // The app's route table with its schemas, and the OpenAPI document built from it, are the server's.
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/messages.ts", "lib/**/server-*.ts", "lib/**/*-route.ts", "lib/hooks/use-url-state.ts", "lib/api/app-operations.ts", "lib/api/app-openapi.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@/lib/i18n/messages", message: "Every language's dictionary: use the provider's t(), or import type.", allowTypeImports: true },
            { name: "@/lib/platform/operations", message: "Every zod schema: use the zod-free route table, or import type.", allowTypeImports: true },
            { name: "@/lib/platform/resources", message: "Every zod schema: use lib/platform/limits.ts, or import type.", allowTypeImports: true },
            { name: "zod", message: "zod stays on the server.", allowTypeImports: true },
            { name: "server-only", message: "Browser code." },
            ...nuqsPaths,
          ],
          patterns: [{ group: ["@/lib/*/messages"], message: "A feature's dictionary: use the provider's t(), or import type.", allowTypeImports: true }],
        },
      ],
    },
  },
  {
    // Modules import in one direction: a cycle means two modules are one concern, or a third is missing.
    files: ["lib/**"],
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Command-line entry points talk to a terminal.
    files: ["scripts/**", "sandbox/main.ts", "e2e/**"],
    rules: { "no-console": "off" },
  },
];

export default config;
