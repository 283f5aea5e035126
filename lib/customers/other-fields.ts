/**
 * The fields of a customer record beyond §2.1: the real platform returns about thirty more (`qq`,
 * `acceptEmail`, `externalId`, `membershipLevel`, …). The console keeps them as they come, shows
 * them read-only under "Other fields" and never sends them back in an edit (the edit sends only
 * changed §2.1 fields). Zod-free, for the browser.
 */

/** §2.1's customer fields (the schema `customer` of lib/platform/resources.ts; a test keeps them equal). */
export const SPEC_CUSTOMER_FIELDS: readonly string[] = [
  "id", "displayName", "name", "img", "gender", "mobile", "mobileVerified", "email", "emailVerified", "birthday",
  "messenger", "im", "nickName", "country", "province", "city", "county", "homeAddress", "officeAddress", "stage",
  "dateJoin", "source", "contentName", "company", "title", "industry", "employeeNumber", "annualRevenue", "website",
  "telephone", "ownerId", "ownerName", "isMember", "isEmployee", "campaignId", "campaignName", "lastUpdated", "remark",
  "dateCreated", "attr",
];
const SPEC = new Set(SPEC_CUSTOMER_FIELDS);

/** The record's fields beyond §2.1, sorted by name, values as received. */
export function otherFields(customer: Record<string, unknown>): [string, unknown][] {
  return Object.entries(customer)
    .filter(([key]) => !SPEC.has(key))
    .sort(([a], [b]) => a.localeCompare(b));
}
