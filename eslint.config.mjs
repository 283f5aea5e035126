import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

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
    // The console's links are AppLink: next/link brings its prefetching (about 3 kB gzip) into every
    // route's first load, and the console's pages are dynamic, so it prefetches nothing.
    files: ["app/**", "components/**"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use AppLink (components/ui/app-link.tsx)." }] }] },
  },
  {
    // Browser code must not import, as a value, what would put every language or every zod schema
    // into the first-load bundle; types are free. (Server pages and route handlers may.)
    files: ["components/**", "lib/{api,hooks,forms,ui,batch,customers,lists,tags,orders,events,activity,shell}/**", "lib/search/{search-queries,types}.ts"],
    // The schemas of the app's routes (each feature's, and the joined table), and the OpenAPI document built from them, are the server's.
    // Server modules named for what they are, not where they run: route deps, the event import's uploads (the name its migration gives).
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/messages.ts", "lib/**/server-*.ts", "lib/**/*-route.ts", "lib/**/*-route-deps.ts", "lib/events/import-uploads.ts", "lib/**/*-operations.ts"],
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
          patterns: [{ group: ["@/lib/*/messages"], message: "A feature's dictionary: use the provider's t(), or import type.", allowTypeImports: true }],
        },
      ],
    },
  },
  {
    // Auth and the webhook receiver call no feature: they publish lifecycle events and hand deliveries
    // to topic handlers, and features subscribe in lib/composition.ts.
    files: ["lib/auth/**", "lib/webhooks/**"],
    // Tests may check a seam from both sides (a staff key meeting preferences).
    ignores: ["**/*.test.ts", "**/testing/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/lib/(search|dashboard|customers|lists|tags|orders|events|activity|shops|media|preferences|composition)(/|$)",
              message: "Publish a lifecycle event (lib/auth/lifecycle.ts) or a webhook topic (lib/webhooks/topics.ts); features subscribe in lib/composition.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    // One way to show a time: TimeText over lib/time.ts (UTC+8, the console's language, not the
    // browser's). Numbers go through ICU `{n, number}` or `formatNumber` (lib/i18n/icu.ts); the
    // locale methods are refused on any value, as a lint cannot tell a number from a Date.
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["lib/time.ts", "scripts/**", "e2e/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...["toLocaleString", "toLocaleDateString", "toLocaleTimeString"].map((name) => ({
          selector: `MemberExpression[property.name='${name}']`,
          message: `${name} formats by the browser's zone and language: show times with TimeText (components/ui/time-text.tsx, lib/time.ts) and numbers with ICU {n, number} or formatNumber (lib/i18n/icu.ts).`,
        })),
        {
          selector: "MemberExpression[object.name='Intl'][property.name='DateTimeFormat']",
          message: "Times are formatted in lib/time.ts only (UTC+8 in the console's language): use TimeText or its functions.",
        },
      ],
    },
  },
  {
    // Modules import in one direction, everywhere: a cycle means two modules are one concern, or a
    // third is missing. (Between lib/ folders: lib/folder-imports.test.ts.) Packages are never part
    // of a cycle, so the rule neither follows nor parses them ("import/ignore"): that halves lint time.
    settings: { "import/ignore": ["node_modules"] },
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Command-line entry points talk to a terminal.
    files: ["scripts/**", "sandbox/main.ts", "e2e/**"],
    rules: { "no-console": "off" },
  },
];

export default config;
