/**
 * The customers table's columns (§2.1 fields) and the ones the platform sorts by. Apart from the
 * list's URL state: the detail page shows fields with the table's `cellText`.
 */

/**
 * In the table's order: the person (name, contact) and their state first, the 16-digit id last (it is
 * for copying, not for reading; at 1024 px it pushed Mobile and Email out of the pane).
 */
export const CUSTOMER_COLUMNS = [
  "displayName", "name", "nickName", "mobile", "mobileVerified", "email", "emailVerified", "stage", "source", "gender", "birthday",
  "contentName", "company", "title", "industry", "country", "province", "city", "county",
  "telephone", "ownerName", "campaignName", "remark", "dateJoin", "dateCreated", "lastUpdated", "id",
] as const;
export type CustomerColumn = (typeof CUSTOMER_COLUMNS)[number];

/** Off by default: the id (the name links to the customer; the column chooser brings it back, last). */
export const DEFAULT_COLUMNS: readonly CustomerColumn[] = ["displayName", "mobile", "email", "stage", "source", "dateCreated", "lastUpdated"];

/** `sidx` values the platform sorts customers by (the sandbox accepts exactly these). */
export const SORTABLE_COLUMNS = ["id", "dateCreated", "lastUpdated", "stage", "source", "gender", "name", "mobile", "email"] as const;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];
