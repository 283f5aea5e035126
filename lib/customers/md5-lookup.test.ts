import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { parseOperationInput } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { isMd5NotFound, md5LookupInput, md5LookupUrlState, md5ValueProblem } from "./md5-lookup";

const parseMd5Lookup = md5LookupUrlState.parse;
const serializeMd5Lookup = md5LookupUrlState.serialize;

const HEX = "0123456789abcdef0123456789abcdef";

describe("MD5 identity lookup (§4.1 getCustomerIdentityByMd5)", () => {
  it("§4.1 md5type is common or marketplace; anything else reads as the default, common", () => {
    expect(parseMd5Lookup(new URLSearchParams("md5type=marketplace&md5value=x"))).toEqual({ md5type: "marketplace", md5value: "x" });
    expect(parseMd5Lookup(new URLSearchParams("md5type=sha1"))).toEqual({ md5type: "common", md5value: "" });
  });

  it("§4.1 md5value is required, and an MD5 is 32 hex characters (upper case accepted, sent lower case)", () => {
    expect(md5ValueProblem("  ")).toBe("required");
    expect(md5ValueProblem("13800000000")).toBe("notMd5");
    expect(md5ValueProblem(`${HEX}0`)).toBe("notMd5");
    expect(md5ValueProblem(` ${HEX.toUpperCase()} `)).toBeUndefined();
    expect(md5LookupInput({ md5type: "marketplace", md5value: ` ${HEX.toUpperCase()} ` })).toEqual({ query: { md5type: "marketplace", md5value: HEX } });
  });

  it("asks nothing while the value is missing or not an MD5", () => {
    expect(md5LookupInput({ md5type: "common", md5value: "" })).toBeUndefined();
    expect(md5LookupInput({ md5type: "common", md5value: "abc" })).toBeUndefined();
  });

  it("the request is one the operation table accepts", () => {
    expect(parseOperationInput(operations["identities.getByMd5"], md5LookupInput({ md5type: "common", md5value: HEX }) as never).ok).toBe(true);
  });

  it("keeps openAppId and lang in the URL, leaves defaults out, round-trips", () => {
    const keep = new URLSearchParams("openAppId=oa-1&lang=zh-CN&md5value=old");
    const out = serializeMd5Lookup({ md5type: "marketplace", md5value: HEX.toUpperCase() }, keep);
    expect(out.toString()).toBe(`openAppId=oa-1&lang=zh-CN&md5type=marketplace&md5value=${HEX}`);
    expect(parseMd5Lookup(out)).toEqual({ md5type: "marketplace", md5value: HEX });
    expect(serializeMd5Lookup({ md5type: "common", md5value: "" }, keep).toString()).toBe("openAppId=oa-1&lang=zh-CN");
  });

  it("§7.2 not found is code 409200; other failures are not 'not found'", () => {
    expect(isMd5NotFound(new ApiError({ status: 404, code: "409200", message: "Not found" }))).toBe(true);
    expect(isMd5NotFound(new ApiError({ status: 404, code: "not_found", message: "no such platform operation" }))).toBe(false);
    expect(isMd5NotFound(new ApiError({ status: 502, code: "upstream", message: "x" }))).toBe(false);
    expect(isMd5NotFound(null)).toBe(false);
  });
});
