import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogsForTests, logger } from "./log";

let capture: ReturnType<typeof captureLogsForTests> | undefined;
afterEach(() => capture?.restore());

function lines(): Record<string, unknown>[] {
  return capture!.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

const SENSITIVE = ["access_token", "accessToken", "refresh_token", "refreshToken", "client_secret", "clientSecret", "secret", "password", "code", "hmac", "token", "getOpenAppIdToken", "authorization", "cookie", "set-cookie", "sessionToken", "state"];

describe("the logger censors sensitive fields", () => {
  it("at the top, one and two levels down, in arrays too, and keeps everything else", () => {
    capture = captureLogsForTests();
    const line = { token: "t1", status: 200, nested: { accessToken: "a1", n: 1, deeper: { code: "c1", keep: "k" } }, list: [{ secret: "s1" }], headers: { "set-cookie": "ec=1", accept: "x" } };
    logger().info(line, "hello");
    expect(lines()[0]).toMatchObject({
      msg: "hello",
      token: "[redacted]",
      status: 200,
      nested: { accessToken: "[redacted]", n: 1, deeper: { code: "[redacted]", keep: "k" } },
      list: [{ secret: "[redacted]" }],
      headers: { "set-cookie": "[redacted]", accept: "x" },
    });
    // The caller's object is left as it was.
    expect(line.nested.deeper.code).toBe("c1");
    expect(line.token).toBe("t1");
  });

  it("in a child logger's bindings and in a serialized error", () => {
    capture = captureLogsForTests();
    logger().child({ scope: "s", cookie: "ec_session=abc" }).warn({ err: Object.assign(new Error("boom"), { access_token: "at_1" }) }, "failed");
    const [line] = lines();
    expect(line).toMatchObject({ scope: "s", cookie: "[redacted]", err: { type: "Error", message: "boom", access_token: "[redacted]" } });
    expect(capture.lines[0]).not.toContain("at_1");
  });

  it("in the bindings of a child's child, nested too", () => {
    capture = captureLogsForTests();
    logger().child({ scope: "a" }).child({ headers: { authorization: "Bearer xyz" }, requestId: "r1" }).info({ n: 1 }, "m");
    expect(lines()[0]).toMatchObject({ scope: "a", requestId: "r1", headers: { authorization: "[redacted]" }, n: 1 });
  });

  it("never writes the value of a sensitive key down to two levels (property)", () => {
    capture = captureLogsForTests();
    fc.assert(
      fc.property(fc.constantFrom(...SENSITIVE), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.stringMatching(/^[A-Za-z0-9]{8,20}$/), (key, depth, inArray, secret) => {
        const marked = `SECRET-${secret}`;
        let value: unknown = { [key]: marked, other: 1 };
        for (let d = 0; d < depth; d++) value = inArray && d === 0 ? [value] : { level: value };
        const before = capture!.lines.length;
        logger().info(value as object, "m");
        expect(capture!.lines[before]).not.toContain(marked);
      }),
      { numRuns: 300 },
    );
  });
});
