import type { FeatureTranslate } from "@/lib/i18n/feature-messages";
import type { eventRuleMessages } from "@/lib/i18n/events/rules";
import type { EventProblem } from "@/lib/events/event-fields";

export type RuleKey = keyof (typeof eventRuleMessages)["en"];
export type RuleTranslate = FeatureTranslate<RuleKey>;

/** The sentence for a broken event rule (§2.3, §8), shared by the recording dialog and the import. */
export function eventProblemText(problem: EventProblem, t: RuleTranslate): string {
  const values: Record<string, string | number> = {};
  if ("max" in problem) values.max = problem.max;
  if ("min" in problem) values.min = problem.min;
  if ("kind" in problem) values.kind = t(`eventKind.${problem.kind}`);
  return t(`eventError.${problem.code}`, values);
}
