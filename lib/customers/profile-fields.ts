/** Profile fields in reading order (§2.1) on a customer's page; times and flags are formatted there. */
export const PROFILE_FIELDS = [
  "id", "name", "nickName", "gender", "birthday", "mobile", "mobileVerified", "email", "emailVerified", "telephone",
  "stage", "source", "contentName", "company", "title", "industry", "employeeNumber", "annualRevenue", "website",
  "country", "province", "city", "county", "homeAddress", "officeAddress", "messenger", "im", "ownerName", "isEmployee",
  "campaignName", "remark", "dateJoin", "dateCreated", "lastUpdated",
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

const filled = (value: unknown) => value !== null && value !== undefined && !(typeof value === "string" && value.trim() === "");

/**
 * The profile split for reading: the fields the customer has a value in (shown), and the empty ones
 * (behind a toggle), each in reading order. A false flag or a 0 is a value.
 */
export function splitProfileFields(customer: Record<string, unknown>): { filled: ProfileField[]; empty: ProfileField[] } {
  const result = { filled: [] as ProfileField[], empty: [] as ProfileField[] };
  for (const field of PROFILE_FIELDS) (filled(customer[field]) ? result.filled : result.empty).push(field);
  return result;
}
