import type { Translate } from "@/lib/i18n/format";
import type { EventProblem } from "@/lib/events/event-fields";


/** The sentence for a broken event rule (§2.3, §8), shared by the recording dialog and the import. */
export function eventProblemText(problem: EventProblem, t: Translate): string {
  const values: Record<string, string | number> = {};
  if ("max" in problem) values.max = problem.max;
  if ("min" in problem) values.min = problem.min;
  if ("kind" in problem) values.kind = t(`eventKind.${problem.kind}`);
  if ("count" in problem) values.count = problem.count;
  return t(`eventError.${problem.code}`, values);
}
