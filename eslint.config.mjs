import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
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
    // Browser code must not import, as a value, what would put every language or every zod schema
    // into the first-load bundle; types are free. (Server pages and route handlers may.)
    files: ["components/**", "lib/hooks/**", "lib/api/**"],
    ignores: ["lib/api/server-*.ts", "**/*.test.ts", "**/*.test.tsx"],
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
          ],
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
