import type { EventProblem } from "@/lib/events/event-fields";
import type { MessageKey, Translate } from "@/lib/i18n/messages";

/** The sentence for a broken event rule (§2.3, §8), shared by the recording form and the import. */
export function eventProblemText(problem: EventProblem, t: Translate): string {
  const values: Record<string, string | number> = {};
  if ("max" in problem) values.max = problem.max;
  if ("min" in problem) values.min = problem.min;
  if ("kind" in problem) values.kind = t(`eventKind.${problem.kind}` as MessageKey);
  return t(`eventError.${problem.code}` as MessageKey, values);
}
