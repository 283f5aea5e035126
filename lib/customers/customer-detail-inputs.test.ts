import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseOperationInput } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { platformKeys, platformKeys as queryKeys } from "@/lib/api/query-keys";
import { CUSTOMER_DETAIL_OPERATIONS, customerDetailInputs, customerDetailReads } from "./customer-detail-inputs";

const ID = "9223372036854775000";

describe("customer detail reads (server prefetch = client queries)", () => {
  it("prefetches every section: profile, identities, statistics, tags, lists, events and orders", () => {
    expect(customerDetailReads(ID).map((r) => r.name).sort()).toEqual(
      ["customers.get", "identities.list", "customers.statistics", "customerTags.get", "listMembers.list", "lists.list", "events.list", "deals.list"].sort(),
    );
  });

  it("the server's keys (platformKeys) equal the browser's keys (queryKeys) built from the same inputs", () => {
    const inputs = customerDetailInputs(ID);
    for (const read of customerDetailReads(ID)) {
      expect(read.input).toEqual(inputs[read.part]);
      expect(platformKeys.call(read.name, read.input as never)).toEqual(queryKeys.call(read.name, inputs[read.part] as never));
    }
  });

  it("the first render's event query is the unfiltered one; a type filter makes another key", () => {
    expect(customerDetailReads(ID).find((r) => r.part === "events")!.input).toEqual(customerDetailInputs(ID, "").events);
    expect(customerDetailInputs(ID, "c_buy").events.query).toMatchObject({ event: "c_buy" });
    expect(platformKeys.call("events.list", customerDetailInputs(ID, "c_buy").events)).not.toEqual(platformKeys.call("events.list", customerDetailInputs(ID).events));
  });

  it("every input is valid for its operation (a prefetch the platform client refuses would be a browser fetch)", () => {
    for (const read of customerDetailReads(ID)) {
      const parsed = parseOperationInput(operations[read.name], read.input as never);
      expect(parsed.ok, read.name).toBe(true);
    }
  });

  it("the detail components read only operations the server prefetches, with inputs from customerDetailInputs", () => {
    const prefetched = new Set<string>(Object.values(CUSTOMER_DETAIL_OPERATIONS));
    for (const file of ["components/customers/customer-detail.tsx", "components/customers/customer-activity.tsx"]) {
      const source = readFileSync(join(process.cwd(), file), "utf8");
      const calls = [...source.matchAll(/platformQuery\(\s*"([^"]+)",\s*([^\n]*)/g)];
      for (const [, name, rest] of calls) {
        expect(prefetched.has(name!), `${file}: ${name}`).toBe(true);
        expect(rest, `${file}: ${name}`).toMatch(/^(inputs\.|customer(Detail|Activity)Inputs\()/);
      }
      expect(calls.length, file).toBeGreaterThan(0);
    }
  });
});
