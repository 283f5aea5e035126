import { describe, expect, it } from "vitest";
import type { ListMember } from "@/lib/platform/resources";
import { countInput, displayRows, joinedRangeProblem, membersInput, membersUrlState, neighbours } from "./list-members-state";

const DEFAULT_MEMBERS_STATE = membersUrlState.defaults;
const parseMembersState = membersUrlState.parse;
const serializeMembersState = membersUrlState.serialize;

const big = "9007199254740993"; // above 2^53: must survive as a string
const member = (id: string, customerId: string): ListMember => ({ id, customerId, listId: "1" });

describe("list members state", () => {
  it("round-trips through the URL, 64-bit boundary as a string", () => {
    const state = { ...DEFAULT_MEMBERS_STATE, sort: "id" as const, order: "desc" as const, rows: 50, since: big, back: true, joinedFrom: "2026-01-01T00:00" };
    const url = serializeMembersState(state, new URLSearchParams("openAppId=1"));
    expect(url.get("since")).toBe(big);
    expect(parseMembersState(url)).toEqual(state);
    expect(serializeMembersState(DEFAULT_MEMBERS_STATE).toString()).toBe("");
  });
  it("looks for one customer in the list (§4.4 customerId), kept in the URL as mcust; a malformed id looks for no one", () => {
    const state = { ...DEFAULT_MEMBERS_STATE, member: big };
    const url = serializeMembersState(state);
    expect(url.get("mcust")).toBe(big);
    expect(parseMembersState(url)).toEqual(state);
    expect(membersInput("1", state).query).toEqual({ listId: "1", rows: DEFAULT_MEMBERS_STATE.rows, sidx: "customerId", sord: "asc", customerId: big });
    expect(parseMembersState(new URLSearchParams("mcust=12a")).member).toBe("");
    expect(membersInput("1", DEFAULT_MEMBERS_STATE).query).not.toHaveProperty("customerId");
  });
  it("refuses a boundary that is not a 64-bit id", () => {
    expect(parseMembersState(new URLSearchParams("since=9223372036854775808&back=1"))).toEqual(DEFAULT_MEMBERS_STATE);
    expect(parseMembersState(new URLSearchParams("since=12a")).since).toBe("");
    expect(serializeMembersState({ ...DEFAULT_MEMBERS_STATE, back: true }).toString()).toBe("");
  });
  it("§4.4: forward keeps the order with the last value as sinceId (lower bound ascending)", () => {
    const state = { ...DEFAULT_MEMBERS_STATE, rows: 2 };
    const { next, previous } = neighbours(state, [member("10", "5"), member("11", big)]);
    expect(previous).toBeUndefined();
    expect(next).toMatchObject({ since: big, back: false });
    expect(membersInput("1", next!).query).toEqual({ listId: "1", rows: 2, sidx: "customerId", sord: "asc", sinceId: big });
  });
  it("§4.4: back reverses the order with the first value as sinceId (upper bound descending) and reverses the answer", () => {
    const state = { ...DEFAULT_MEMBERS_STATE, sort: "id" as const, rows: 2, since: "11" };
    const { previous } = neighbours(state, [member("12", "7"), member("13", "8")]);
    expect(previous).toMatchObject({ since: "12", back: true });
    expect(membersInput("1", previous!).query).toMatchObject({ sidx: "id", sord: "desc", sinceId: "12" });
    expect(displayRows(previous!, [member("11", "1"), member("10", "2")]).map((m) => m.id)).toEqual(["10", "11"]);
  });
  it("a descending list pages back in ascending order", () => {
    const state = { ...DEFAULT_MEMBERS_STATE, order: "desc" as const, since: "50", back: true };
    expect(membersInput("1", state).query?.sord).toBe("asc");
  });
  it("a short back page reached the start: no previous, but a next", () => {
    const state = { ...DEFAULT_MEMBERS_STATE, rows: 5, since: "9", back: true };
    const { next, previous } = neighbours(state, [member("1", "1")]);
    expect(previous).toBeUndefined();
    expect(next).toMatchObject({ since: "1", back: false });
  });
  it("a short forward page has no next", () => {
    expect(neighbours({ ...DEFAULT_MEMBERS_STATE, rows: 5 }, [member("1", "1")]).next).toBeUndefined();
  });
  it("counts a joined-date range typed in UTC+8 as UTC (§2)", () => {
    expect(countInput("3", { joinedFrom: "2026-03-01T08:00", joinedTo: "2026-03-02T07:59" }).query).toEqual({
      listId: "3",
      joinListDateSince: "2026-03-01T00:00:00",
      joinListDateTo: "2026-03-01T23:59:00",
    });
    expect(countInput("3", { joinedFrom: "", joinedTo: "" }).query).toEqual({ listId: "3" });
  });
  it("does not send an invalid or reversed range", () => {
    expect(joinedRangeProblem({ joinedFrom: "2026-02-30T00:00", joinedTo: "" })).toBe("invalidFrom");
    expect(joinedRangeProblem({ joinedFrom: "2026-03-02T00:00", joinedTo: "2026-03-01T00:00" })).toBe("reversed");
    expect(countInput("3", { joinedFrom: "2026-03-02T00:00", joinedTo: "2026-03-01T00:00" }).query).toEqual({ listId: "3" });
  });
});
