import { it, expect } from "vitest";
import { TAB_STORAGE_JS } from "@/lib/auth/tab-storage";
it("inline tab storage falls back to window.name", () => {
  const window: { name: string; sessionStorage?: unknown } = { name: "" };
  Object.defineProperty(window, "sessionStorage", { get() { throw new Error("SecurityError"); } });
  const T = new Function("window", `${TAB_STORAGE_JS}; return T;`)(window);
  T.set("a", "1"); expect(T.get("a")).toBe("1"); expect(JSON.parse(window.name)).toEqual({ ec: { a: "1" } });
  T.del("a"); expect(T.get("a")).toBeNull();
});

it("inline tab storage uses sessionStorage when the browser allows it", () => {
  const store = new Map<string, string>();
  const sessionStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) };
  const window = { name: "platform-frame", sessionStorage };
  const T = new Function("window", `${TAB_STORAGE_JS}; return T;`)(window);
  T.set("ec.flow.x", "sealed");
  expect(store.get("ec.flow.x")).toBe("sealed");
  expect(window.name).toBe("platform-frame");
  T.del("ec.flow.x");
  expect(store.size).toBe(0);
});
