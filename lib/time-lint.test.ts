import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The project's own ESLint config: times are shown through lib/time.ts (TimeText) only.
const eslint = new ESLint({ cwd: process.cwd() });
const restricted = async (code: string, filePath: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message.split(" ")[0]);

describe("one module formats times", () => {
  const code = [
    "export const a = new Date(0).toLocaleString('en');",
    "export const b = new Date(0).toLocaleDateString();",
    "export const c = new Date(0).toLocaleTimeString();",
    "export const d = new Intl.DateTimeFormat('en');",
    "export const e = (5).toLocaleString('en');",
  ].join("\n");

  it("refuses the locale methods and Intl.DateTimeFormat in components and lib", async () => {
    expect(await restricted(code, "components/ui/probe.tsx")).toEqual(["toLocaleString", "toLocaleDateString", "toLocaleTimeString", "Times", "toLocaleString"]);
    expect(await restricted(code, "lib/customers/probe.ts")).toHaveLength(5);
  });

  it("allows them in lib/time.ts, the time module", async () => {
    expect(await restricted(code, "lib/time.ts")).toEqual([]);
  });
});
