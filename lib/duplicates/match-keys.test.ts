import { describe, expect, it } from "vitest";
import { clustersOf, MAX_GROUP, pairsOf } from "./clusters";
import { emailKey, matchKeysOf, mobileKey, stillMatch } from "./match-keys";

describe("match keys", () => {
  it("a mobile with or without +86, spaces and dashes is one key; other country codes stay apart", () => {
    const forms = ["+86 139 0000 0000", "13900000000", "139-0000-0000", "8613900000000", "0086 13900000000", "+86-13900000000", "１３９００００００００"];
    expect(new Set(forms.map(mobileKey))).toEqual(new Set(["13900000000"]));
    expect(mobileKey("+852 13900000000")).toBe("85213900000000");
    expect(mobileKey("12345")).toBeNull();
    expect(mobileKey(null)).toBeNull();
  });

  it("emails ignore case everywhere, dots and +suffix only at Gmail", () => {
    expect(emailKey("Li.Na+shop@GoogleMail.com")).toBe("lina@gmail.com");
    expect(emailKey("l.i.na@gmail.com")).toBe(emailKey("LiNa@gmail.com"));
    expect(emailKey("li.na@qq.com")).toBe("li.na@qq.com");
    expect(emailKey("li.na@qq.com")).not.toBe(emailKey("lina@qq.com"));
    expect(emailKey("li+x@163.com")).toBe("li+x@163.com");
    expect(emailKey("not-an-address")).toBeNull();
  });

  it("identity keys need the same type; name rules need a name of two characters or more", () => {
    const keys = matchKeysOf({ name: "李娜", mobile: "+86 13900001234", identities: [{ type: "wechat", value: "o1" }], birthday: "1990-01-02" });
    expect(keys).toEqual(
      expect.arrayContaining([
        { rule: "identity", key: "wechat:o1" },
        { rule: "mobile", key: "13900001234" },
        { rule: "nameMobile8", key: "李娜|00001234" },
        { rule: "nameBirthday", key: "李娜|1990-01-02" },
      ]),
    );
    expect(matchKeysOf({ identities: [{ type: "qq", value: "o1" }] })).not.toEqual(matchKeysOf({ identities: [{ type: "wechat", value: "o1" }] }));
    expect(matchKeysOf({ name: "李", mobile: "13900001234", birthday: "1990-01-02" }).map((k) => k.rule)).toEqual(["mobile"]);
    expect(matchKeysOf({ name: "Li Na", birthday: "02/01/1990" })).toEqual([]);
  });

  it("re-check: fresh records still share the rule's key, or not", () => {
    expect(stillMatch({ mobile: "+86 13900000000" }, { mobile: "13900000000" }, "mobile")).toBe(true);
    expect(stillMatch({ mobile: "13900000001" }, { mobile: "13900000000" }, "mobile")).toBe(false);
  });
});

describe("pairs and clusters", () => {
  it("A=B and B=C are one cluster; strongest first; rules that agree raise the score", () => {
    const pairs = pairsOf([
      { rule: "mobile", key: "m1", members: ["1", "2"] },
      { rule: "email", key: "e1", members: ["2", "3"] },
      { rule: "nameBirthday", key: "n1", members: ["10", "11"] },
      { rule: "identity", key: "i1", members: ["10", "11"] },
      { rule: "nameBirthday", key: "n2", members: ["20", "21"] },
    ]);
    const clusters = clustersOf(pairs);
    expect(clusters.map((c) => c.members)).toEqual([["10", "11"], ["1", "2", "3"], ["20", "21"]]);
    expect(clusters[0]!.score).toBe(100);
    expect(clusters[1]!.pairs.map((p) => [p.a, p.b, p.rules])).toEqual([["1", "2", ["mobile"]], ["2", "3", ["email"]]]);
  });

  it("a dismissed pair never pairs again; a key shared by too many customers is left out", () => {
    const dismissed = new Set(["1:2"]);
    expect(pairsOf([{ rule: "mobile", key: "m", members: ["2", "1"] }], dismissed)).toEqual([]);
    const many = Array.from({ length: MAX_GROUP + 1 }, (_, i) => String(i + 1));
    expect(pairsOf([{ rule: "email", key: "noreply@x.cn", members: many }])).toEqual([]);
  });

  it("ids compare as numbers (9 before 10)", () => {
    expect(clustersOf(pairsOf([{ rule: "mobile", key: "m", members: ["10", "9"] }]))[0]!.id).toBe("9");
  });
});
