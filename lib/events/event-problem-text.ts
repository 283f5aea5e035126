import type { Translate } from "@/lib/i18n/format";
import type { EventProblem } from "./event-fields";
import type { HeaderProblem, RowProblem } from "./event-rows";

/** The sentence for a broken event rule (§2.3, §8), shared by the recording dialog, the import page and the import task. */
export function eventProblemText(problem: EventProblem, t: Translate): string {
  const values: Record<string, string | number> = {};
  if ("max" in problem) values.max = problem.max;
  if ("min" in problem) values.min = problem.min;
  if ("kind" in problem) values.kind = t(`eventKind.${problem.kind}`);
  if ("count" in problem) values.count = problem.count;
  return t(`eventError.${problem.code}`, values);
}

/** Why a CSV row cannot be imported, column by column (the preview and the failure report). */
export function rowProblemsText(problems: RowProblem[], t: Translate): string {
  return problems.map((p) => `${p.column}: ${eventProblemText(p, t)}`).join(" ");
}

/** Why the CSV's header row cannot be imported. */
export function headerProblemText(p: HeaderProblem, t: Translate): string {
  if (p.code === "tooManyProperties") return t("eventError.tooManyProperties", { max: p.max, kind: t(`eventKind.${p.kind}`) });
  return t(`eventError.${p.code}`, { column: p.column });
}
