import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * lib/ is one folder per feature, and folders import in one direction: a loop between folders means
 * two features are one concern, or a piece both need belongs lower down (ESLint's import/no-cycle
 * sees only circles between files). Counted: value imports of non-test code (type-only imports
 * vanish at run time, as they do for import/no-cycle). Tests and testing helpers may reach anywhere.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const LIB = path.join(ROOT, "lib");

/**
 * Edges that are not a dependency: the one dictionary (lib/i18n/messages.ts) joins each feature's
 * messages.ts, and those import lib/i18n's helpers; the joiner depends on the texts, not on the
 * feature.
 */
function ignored(from: string, to: string): boolean {
  if (from === "lib/i18n/messages.ts" && /^lib\/[^/]+\/messages\.ts$/.test(to)) return true;
  return false;
}

const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || /\/testing(\/|\.ts$)/.test(file);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  for (const suffix of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    if (fs.existsSync(base + suffix) && fs.statSync(base + suffix).isFile()) return base + suffix;
  }
  return undefined;
}

/** The specifiers a file imports as values (static, re-exports, dynamic `import()`). */
export function valueImports(source: string): string[] {
  const file = ts.createSourceFile("x.tsx", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Folder → folder → the file edges behind it. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  const folderOf = (rel: string) => (rel.split("/").length > 2 ? rel.split("/")[1]! : undefined);
  for (const full of sourceFiles(LIB)) {
    const from = path.relative(ROOT, full).split(path.sep).join("/");
    const a = folderOf(from);
    if (!a || isTestCode(from)) continue;
    for (const specifier of valueImports(fs.readFileSync(full, "utf8"))) {
      const target = resolve(full, specifier);
      if (!target) continue;
      const to = path.relative(ROOT, target).split(path.sep).join("/");
      const b = to.startsWith("lib/") ? folderOf(to) : undefined;
      if (!b || a === b || ignored(from, to)) continue;
      if (!graph.has(a)) graph.set(a, new Map());
      const edges = graph.get(a)!;
      edges.set(b, [...(edges.get(b) ?? []), `${from} → ${to}`]);
    }
  }
  return graph;
}

/** The loops of a directed graph: its strongly connected components of more than one node (Tarjan). */
export function loops(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("lib/ folders import in one direction", () => {
  it("finds loops, and only loops", () => {
    expect(loops(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
    expect(loops(new Map([["a", ["b"]], ["b", ["c"]], ["d", ["a", "c"]]]))).toEqual([]);
  });

  it("counts value imports, not type-only ones", () => {
    const source = `import type { A } from "@/lib/a/x";\nimport { type B } from "@/lib/b/x";\nimport { C, type D } from "@/lib/c/x";\nexport { E } from "@/lib/e/x";\nexport type { F } from "@/lib/f/x";\nconst g = () => import("@/lib/g/x");\nimport "@/lib/h/x";`;
    expect(valueImports(source)).toEqual(["@/lib/c/x", "@/lib/e/x", "@/lib/g/x", "@/lib/h/x"]);
  });

  it("has no loop between lib/ folders", () => {
    const graph = folderGraph();
    const found = loops(new Map([...graph].map(([from, edges]) => [from, [...edges.keys()]])));
    // On failure: every file edge inside each loop, to see which one belongs elsewhere.
    const explained = found.map((members) => members.flatMap((a) => members.flatMap((b) => graph.get(a)?.get(b) ?? [])));
    expect(explained).toEqual([]);
  });
});
