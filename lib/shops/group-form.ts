/** The shop group form (§4.8 POST /v1/storesGroups: name, remark and shops all required). Pure. */

export type GroupForm = { name: string; remark: string; shopIds: string[] };
export type GroupProblem = { code: "required" } | { code: "pickOne" } | { code: "tooLong"; max: number };

export const GROUP_NAME_MAX = 255;
export const GROUP_REMARK_MAX = 1000;

export const emptyGroupForm = (): GroupForm => ({ name: "", remark: "", shopIds: [] });

export function validateGroupForm(form: GroupForm): Partial<Record<keyof GroupForm, GroupProblem>> {
  const problems: Partial<Record<keyof GroupForm, GroupProblem>> = {};
  if (!form.name.trim()) problems.name = { code: "required" };
  else if (form.name.trim().length > GROUP_NAME_MAX) problems.name = { code: "tooLong", max: GROUP_NAME_MAX };
  if (!form.remark.trim()) problems.remark = { code: "required" };
  else if (form.remark.trim().length > GROUP_REMARK_MAX) problems.remark = { code: "tooLong", max: GROUP_REMARK_MAX };
  if (form.shopIds.length === 0) problems.shopIds = { code: "pickOne" };
  return problems;
}

/** Ticks or unticks a shop, keeping the order of picking. */
export const toggleShop = (ids: readonly string[], id: string): string[] => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);
