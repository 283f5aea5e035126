import { describe, expect, it } from "vitest";
// Only the store itself, as a page's server code imports it (no webhook module in the graph).
import { storeMigrations } from "./migrations";
import "./database";

describe("store migrations", () => {
  it("a store opened from any route knows every migration (002-webhook-inbox included), so a database migrated by the webhook route opens", () => {
    expect(Object.keys(storeMigrations()).sort()).toEqual(expect.arrayContaining(["001-environments-installations", "002-webhook-inbox"]));
  });
});
