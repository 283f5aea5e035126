import { describe, expect, it } from "vitest";
import { CUSTOMER_COLUMNS, DEFAULT_COLUMNS } from "./customer-columns";

describe("the customers table fits 1024 px: the person first, the id last or off", () => {
  it("shows name, contact and state first, and no id by default", () => {
    expect(DEFAULT_COLUMNS.slice(0, 5)).toEqual(["displayName", "mobile", "email", "stage", "source"]);
    expect(DEFAULT_COLUMNS).not.toContain("id");
  });

  it("puts the id last when chosen (the chooser keeps the catalogue's order)", () => {
    expect(CUSTOMER_COLUMNS.at(-1)).toBe("id");
    const chosen = CUSTOMER_COLUMNS.filter((c) => ["id", "displayName", "email"].includes(c));
    expect(chosen).toEqual(["displayName", "email", "id"]);
  });
});
