import "../api/schema";
import { customerStore, type CustomerDoc } from "../api/customer-store";
import type { SandboxContext } from "../context";

/**
 * Planted duplicates, for the app's duplicate finder (its e2e and demos): for each rule, `perRule`
 * existing customers of every environment's tenant get a new customer who is the same person by that
 * rule only — the mobile written another way (dashes, no +86), the email in capitals, the same name
 * with another mobile ending in the same 8 digits, the same name and birthday. Identities cannot be
 * planted: the platform binds an identity value of a type to one customer (§4.1 rule 1).
 * Deterministic: the originals are the tenant's oldest customers that have the field.
 */
export type PlantedDuplicate = { tenantId: number; rule: "mobile" | "email" | "nameMobile8" | "nameBirthday"; originalId: string; duplicateId: string };

const MOBILE = /^\+86 (\d{11})$/;

export function plantDuplicates(ctx: SandboxContext, perRule: number): PlantedDuplicate[] {
  const customers = customerStore(ctx.db);
  const out: PlantedDuplicate[] = [];
  const now = ctx.clock.nowMs();
  const used = new Set<string>();
  for (const env of ctx.config.environments) {
    const tenantId = env.tenant.id;
    const rows = ctx.db.prepare("SELECT id, doc, date_created, last_updated FROM customers WHERE tenant_id = ? ORDER BY id LIMIT 2000").safeIntegers(true).all(tenantId) as Parameters<typeof customers.doc>[0][];
    const docs = rows.map((row) => ({ id: String(row.id), doc: customers.doc(row) }));
    const take = (test: (doc: CustomerDoc) => boolean) => docs.filter((d) => !used.has(d.id) && test(d.doc)).slice(0, perRule);
    const plant = (rule: PlantedDuplicate["rule"], originals: typeof docs, make: (doc: CustomerDoc) => CustomerDoc) => {
      for (const original of originals) {
        used.add(original.id);
        const id = ctx.db.transaction(() => customers.insert(tenantId, { source: "planted", ...make(original.doc) }, now))();
        out.push({ tenantId, rule, originalId: original.id, duplicateId: String(id) });
      }
    };
    ctx.db.transaction(() => {
      const mobileOf = (doc: CustomerDoc) => MOBILE.exec(String(doc.mobile ?? ""))?.[1];
      plant("mobile", take((d) => mobileOf(d) !== undefined), (d) => {
        const n = mobileOf(d)!;
        return { name: `${String(d.name ?? "")}（门店）`, mobile: `${n.slice(0, 3)}-${n.slice(3, 7)}-${n.slice(7)}` };
      });
      plant("email", take((d) => typeof d.email === "string" && d.email.includes("@")), (d) => ({ nickName: String(d.name ?? "planted"), email: String(d.email).toUpperCase() }));
      plant("nameMobile8", take((d) => mobileOf(d) !== undefined && typeof d.name === "string" && d.name.length >= 2), (d) => {
        const n = mobileOf(d)!;
        return { name: d.name, mobile: `+86 ${n.startsWith("199") ? "188" : "199"}${n.slice(3)}` };
      });
      plant("nameBirthday", take((d) => typeof d.birthday === "string" && typeof d.name === "string" && d.name.length >= 2), (d) => ({ name: d.name, birthday: d.birthday }));
    })();
  }
  return out;
}
