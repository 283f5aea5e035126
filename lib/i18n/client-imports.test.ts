import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Client modules must not import the modules that would put every language (messages.ts) or every
 * schema (operations.ts, resources.ts) into the first-load bundle; types are fine.
 */
const root = path.resolve(import.meta.dirname, "../..");
/** Every dictionary (the joined one and each feature's `lib/<feature>/messages`), and the schemas. */
const HEAVY = ["@/lib/[\\w-]+/messages", "@/lib/platform/operations", "@/lib/platform/resources"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const clientFiles = ["app", "components", "lib"]
  .flatMap(sourceFiles)
  .filter((file) => /^\s*["']use client["']/.test(readFileSync(path.join(root, file), "utf8")));

describe("client bundle imports", () => {
  it("finds the client modules", () => {
    expect(clientFiles).toContain(path.join("components", "i18n", "i18n-provider.tsx"));
  });

  it.each(clientFiles)("%s imports no dictionary or schema module as a value", (file) => {
    const source = readFileSync(path.join(root, file), "utf8");
    for (const spec of HEAVY) {
      const valueImport = new RegExp(`^import (?!type )[^;]*from "${spec}";`, "m");
      expect(source, `${file} imports ${spec}`).not.toMatch(valueImport);
    }
  });
});
