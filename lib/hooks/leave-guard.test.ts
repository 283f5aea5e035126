import { describe, expect, it } from "vitest";
import { leavesPage, type LinkClick } from "./leave-guard";

const here = { href: "http://127.0.0.1:3000/customers/9/edit?openAppId=oa-1", origin: "http://127.0.0.1:3000" };
const click = (over: Partial<LinkClick>): LinkClick => ({ href: "/lists?openAppId=oa-1", target: null, download: false, button: 0, modifier: false, defaultPrevented: false, ...over });

describe("leavesPage: the clicks the unsaved-changes guard asks about", () => {
  it("a side-navigation link or a back link to another page of the console", () => {
    expect(leavesPage(click({}), here)).toBe(true);
    expect(leavesPage(click({ href: "/customers/9?openAppId=oa-1" }), here)).toBe(true);
    expect(leavesPage(click({ href: "/customers/9/edit?openAppId=oa-2" }), here)).toBe(true);
  });
  it("not a new tab, a download, another origin, an anchor of this page, or a click already handled", () => {
    expect(leavesPage(click({ target: "_blank" }), here)).toBe(false);
    expect(leavesPage(click({ modifier: true }), here)).toBe(false);
    expect(leavesPage(click({ button: 1 }), here)).toBe(false);
    expect(leavesPage(click({ download: true }), here)).toBe(false);
    expect(leavesPage(click({ href: "http://127.0.0.1:4000/admin" }), here)).toBe(false);
    expect(leavesPage(click({ href: "#identities" }), here)).toBe(false);
    expect(leavesPage(click({ href: null }), here)).toBe(false);
    expect(leavesPage(click({ defaultPrevented: true }), here)).toBe(false);
  });
});
