import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { browseProblems, eventBrowseInput, eventBrowseUrlState, eventTypesOf, mayHaveMore } from "./event-browse";

const state = (patch: Record<string, string> = {}) => eventBrowseUrlState.parse(new URLSearchParams(patch));

describe("the events browser (§4.3 GET /v1/customerevents)", () => {
  it("by default: the newest 20 by lastUpdated, no other filter", () => {
    const input = eventBrowseInput(state());
    expect(input.query).toEqual({ max: 20, sidx: "lastUpdated", sord: "desc" });
    expect(operations["events.list"].query!.safeParse(input.query).success).toBe(true);
  });

  it("customer, several types, a UTC+8 window sent in UTC with the Z, max up to 1000, the sort", () => {
    const input = eventBrowseInput(state({ customerId: "9007199254740993", types: "open_page, c_purchase，open_page", from: "2026-11-20T08:00", to: "2026-11-21T07:59:59", max: "1000", sort: "date", sord: "asc" }));
    expect(input.query).toEqual({
      customerId: "9007199254740993",
      event: "open_page,c_purchase",
      lastUpdatedFrom: "2026-11-20T00:00:00Z",
      lastUpdatedTo: "2026-11-20T23:59:59Z",
      max: 1000,
      sidx: "date",
      sord: "asc",
    });
    expect(operations["events.list"].query!.safeParse(input.query).success).toBe(true);
  });

  it("a URL typed by hand cannot ask for more than §8 allows or a malformed filter", () => {
    const s = state({ max: "5000", customerId: "abc", types: `${"x".repeat(40)},open_page`, sort: "score", from: "yesterday" });
    expect(s).toMatchObject({ max: 20, customerId: "", sort: "lastUpdated", from: "yesterday" });
    expect(eventBrowseInput(s).query).toEqual({ max: 20, sidx: "lastUpdated", sord: "desc", event: "open_page" });
  });

  it("the filter form says what is wrong before anything is sent", () => {
    expect(browseProblems({ customerId: "12ab", types: "", from: "", to: "" })).toEqual({ customerId: { code: "customerId" } });
    expect(browseProblems({ customerId: "", types: "c_", from: "", to: "" }).types).toEqual({ code: "eventId" });
    expect(browseProblems({ customerId: "", types: "x".repeat(33), from: "", to: "" }).types).toEqual({ code: "tooLong", max: 32 });
    expect(browseProblems({ customerId: "", types: Array.from({ length: 21 }, (_, i) => `e${i}`).join(","), from: "", to: "" }).types).toEqual({ code: "tooManyTypes", max: 20 });
    expect(browseProblems({ customerId: "", types: "", from: "2026-02-30T10:00", to: "" }).from).toEqual({ code: "date" });
    expect(browseProblems({ customerId: "", types: "", from: "2026-11-21T10:00", to: "2026-11-20T10:00" }).to).toEqual({ code: "window" });
    expect(browseProblems({ customerId: "42", types: "open_page,c_buy", from: "2026-11-20T10:00", to: "2026-11-21T10:00" })).toEqual({});
  });

  it("splits type lists on commas, Chinese commas and spaces; says when the answer may be cut at max", () => {
    expect(eventTypesOf(" a, b，c  d ,,a")).toEqual(["a", "b", "c", "d"]);
    expect(mayHaveMore(20, state())).toBe(true);
    expect(mayHaveMore(19, state())).toBe(false);
  });
});
