import "server-only";
import { z } from "zod";
import { answer, defineOperations } from "@/lib/http/define-operations";
import { checkPreference, PREFERENCE_KEYS, type PreferenceKey, type Preferences } from "./preference-rules";

/** The preferences routes with their schemas (the list: lib/http/app-routes.ts). */

const preferences = z.object({ attrLabels: z.record(z.string(), z.string()), customerColumns: z.array(z.string()).nullable() });

/** `{key, value}`: one known preference and its checked value (preference-rules.ts). */
const preferenceWrite = z
  .strictObject({ key: z.enum(Object.keys(PREFERENCE_KEYS) as [PreferenceKey, ...PreferenceKey[]]), value: z.unknown() })
  .transform((body, ctx) => {
    const checked = checkPreference(body.key, body.value);
    if (checked.ok) return { key: body.key, value: checked.value };
    for (const problem of checked.problems) ctx.addIssue({ code: "custom", path: problem.field.split("."), message: problem.message });
    return z.NEVER;
  });

// ── the operations ──────────────────────────────────────────────────────────────────────────────

export const preferencesOperations = defineOperations({
  "preferences.get": { summary: "The console's preferences: the tenant's attribute labels, the user's customer columns", output: answer<Preferences>(preferences) },
  "preferences.put": {
    summary: "Saves one preference, checked; answers the whole set",
    body: preferenceWrite,
    // 100 labels of 64 characters fit many times.
    bodyLimit: 32_768,
    output: answer<Preferences>(preferences),
  },
});
