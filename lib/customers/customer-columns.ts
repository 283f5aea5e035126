/**
 * The customers table's columns (§2.1 fields) and the ones the platform sorts by. Apart from the
 * list's URL state: the detail page shows fields with the table's `cellText`.
 */

export const CUSTOMER_COLUMNS = [
  "id", "displayName", "name", "nickName", "mobile", "mobileVerified", "email", "emailVerified", "gender", "birthday",
  "stage", "source", "contentName", "company", "title", "industry", "country", "province", "city", "county",
  "telephone", "ownerName", "campaignName", "remark", "dateJoin", "dateCreated", "lastUpdated",
] as const;
export type CustomerColumn = (typeof CUSTOMER_COLUMNS)[number];

export const DEFAULT_COLUMNS: readonly CustomerColumn[] = ["id", "displayName", "mobile", "email", "stage", "source", "dateCreated", "lastUpdated"];

/** `sidx` values the platform sorts customers by (the sandbox accepts exactly these). */
export const SORTABLE_COLUMNS = ["id", "dateCreated", "lastUpdated", "stage", "source", "gender", "name", "mobile", "email"] as const;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];
