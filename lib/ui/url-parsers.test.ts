import { describe, expect, it } from "vitest";
import { createParser, loadValues, parseAsStringLiteral, writeValues } from "./url-parsers";

const list = createParser({ parse: (v) => v.split(","), serialize: (v: string[]) => v.join(","), eq: (a, b) => a.join() === b.join() });
const parsers = {
  sort: parseAsStringLiteral(["id", "name"] as const).withDefault("id"),
  cols: list.withDefault(["a", "b"]),
  n: createParser({
    parse: (v) => {
      if (v === "boom") throw new Error("refused");
      return Number(v);
    },
    serialize: String,
  }).withDefault(1),
};
const keys = { sort: "sidx" };

describe("URL parsers", () => {
  it("read their keys (renamed ones by their URL key), the default where absent, refused or throwing", () => {
    expect(loadValues(parsers, keys, new URLSearchParams("sidx=name&cols=c&n=4&sort=id"))).toEqual({ sort: "name", cols: ["c"], n: 4 });
    expect(loadValues(parsers, keys, new URLSearchParams("sidx=other&n=boom"))).toEqual({ sort: "id", cols: ["a", "b"], n: 1 });
    expect(loadValues(parsers, keys, { sidx: ["name", "id"], n: undefined })).toEqual({ sort: "name", cols: ["a", "b"], n: 1 });
  });

  it("write their keys over the others, a default (by `eq`) removing its key, an absent value leaving it", () => {
    const search = new URLSearchParams("openAppId=oa&cols=x&sidx=name");
    expect(writeValues(parsers, keys, search, { sort: "id", cols: ["a", "b"], n: 3 }).toString()).toBe("openAppId=oa&n=3");
    expect(writeValues(parsers, keys, new URLSearchParams("cols=x"), { sort: "name" }).toString()).toBe("cols=x&sidx=name");
  });
});
