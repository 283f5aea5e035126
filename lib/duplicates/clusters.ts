import { RULE_SCORE, type Rule } from "./match-keys";

/**
 * Candidate pairs and clusters from the shared keys (pure). Customers sharing a key of a rule are
 * pairs of that rule; pairs join into clusters (A=B and B=C: one cluster A, B, C). A pair staff
 * said is "not the same person" is left out, so it never joins a cluster again.
 */

/** A key shared by more customers than this is a placeholder (a shop's phone, `noreply@…`), not one person: left out. */
export const MAX_GROUP = 20;

export type SharedKey = { rule: Rule; key: string; members: readonly string[] };

export type Pair = { a: string; b: string; rules: Rule[]; score: number };

export type Cluster = { id: string; members: string[]; pairs: Pair[]; rules: Rule[]; score: number };

/** Decimal ids in numeric order (ids are 64-bit: compared as text by length first). */
export function compareIds(x: string, y: string): number {
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

export const pairKey = (x: string, y: string): string => (compareIds(x, y) <= 0 ? `${x}:${y}` : `${y}:${x}`);

/** The pair's score: its strongest rule's, 2 more for each other rule that agrees, at most 100. */
export function pairScore(rules: readonly Rule[]): number {
  const best = Math.max(...rules.map((r) => RULE_SCORE[r]));
  return Math.min(100, best + 2 * (rules.length - 1));
}

export function pairsOf(groups: readonly SharedKey[], dismissed: ReadonlySet<string> = new Set()): Pair[] {
  const pairs = new Map<string, { a: string; b: string; rules: Set<Rule> }>();
  for (const group of groups) {
    const members = [...new Set(group.members)].sort(compareIds);
    if (members.length < 2 || members.length > MAX_GROUP) continue;
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const key = `${members[i]}:${members[j]}`;
        if (dismissed.has(key)) continue;
        const pair = pairs.get(key) ?? { a: members[i]!, b: members[j]!, rules: new Set<Rule>() };
        pair.rules.add(group.rule);
        pairs.set(key, pair);
      }
    }
  }
  return [...pairs.values()].map((p) => {
    const rules = [...p.rules].sort((x, y) => RULE_SCORE[y] - RULE_SCORE[x]);
    return { a: p.a, b: p.b, rules, score: pairScore(rules) };
  });
}

/** Clusters, strongest first (score, then size, then the smallest id). */
export function clustersOf(pairs: readonly Pair[]): Cluster[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let node = x; node !== root; ) {
      const next = parent.get(node)!;
      parent.set(node, root);
      node = next;
    }
    return root;
  };
  for (const p of pairs) {
    if (!parent.has(p.a)) parent.set(p.a, p.a);
    if (!parent.has(p.b)) parent.set(p.b, p.b);
    const ra = find(p.a);
    const rb = find(p.b);
    if (ra !== rb) parent.set(compareIds(ra, rb) < 0 ? rb : ra, compareIds(ra, rb) < 0 ? ra : rb);
  }
  const byRoot = new Map<string, Pair[]>();
  for (const p of pairs) {
    const root = find(p.a);
    byRoot.set(root, [...(byRoot.get(root) ?? []), p]);
  }
  const clusters = [...byRoot.values()].map((ps): Cluster => {
    const members = [...new Set(ps.flatMap((p) => [p.a, p.b]))].sort(compareIds);
    const sorted = [...ps].sort((x, y) => y.score - x.score || compareIds(x.a, y.a) || compareIds(x.b, y.b));
    const rules = [...new Set(sorted.flatMap((p) => p.rules))];
    return { id: members[0]!, members, pairs: sorted, rules, score: sorted[0]!.score };
  });
  return clusters.sort((x, y) => y.score - x.score || y.members.length - x.members.length || compareIds(x.id, y.id));
}
