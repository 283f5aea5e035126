import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { resultOf, tagCustomers } from "./tag-customers";

describe("tagging customers from the tag's side", () => {
  it("adds to every customer and reports each id; a refused id fails alone with the platform's reason", async () => {
    const sent: string[] = [];
    const progress: number[] = [];
    const results = await tagCustomers("add", "VIP", ["1", "2", "3"], async (id) => {
      sent.push(id);
      if (id === "2") throw new ApiError({ status: 404, code: "404", message: "customer 2 not found" });
      return ["VIP"];
    }, { onProgress: (p) => progress.push(p.done) });
    expect(sent.sort()).toEqual(["1", "2", "3"]);
    expect(progress).toEqual([1, 2, 3]);
    expect(results.map((r) => [r.customerId, r.status])).toEqual([["1", "tagged"], ["2", "failed"], ["3", "tagged"]]);
    expect(results[1]).toMatchObject({ error: { message: "customer 2 not found" } });
  });

  it("removal tells a removed tag from one the customer did not carry (§4.5: the removed names)", () => {
    expect(resultOf("remove", "1", "VIP", ["VIP"]).status).toBe("removed");
    expect(resultOf("remove", "1", "VIP", []).status).toBe("notCarried");
    expect(resultOf("add", "1", "VIP", ["VIP"]).status).toBe("tagged");
  });

  it("stops starting calls once aborted", async () => {
    const controller = new AbortController();
    const results = await tagCustomers("add", "t", ["1", "2", "3", "4"], async (id) => {
      if (id === "1") controller.abort();
      return ["t"];
    }, { signal: controller.signal, concurrency: 1 });
    expect(results.map((r) => r.customerId)).toEqual(["1"]);
  });
});
