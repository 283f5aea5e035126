import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { translate, type MessageKey, type TranslateValues } from "@/lib/i18n/messages";
import { errorMessage, itemFailureReason } from "./error-message";

const en = (key: MessageKey, values?: TranslateValues) => translate("en", key, values);
const zh = (key: MessageKey, values?: TranslateValues) => translate("zh-CN", key, values);
const err = (status: number, message = "boom") => new ApiError({ status, code: `http_${status}`, message });

describe("errorMessage", () => {
  it("names known kinds of failure in the user's language", () => {
    expect(errorMessage(err(0), en)).toMatch(/cannot reach its server/);
    expect(errorMessage(err(429), en)).toMatch(/too many requests/);
    expect(errorMessage(err(504), en)).toMatch(/did not answer in time/);
    expect(errorMessage(new ApiError({ status: 504, code: "timeout", message: "x" }), zh)).toBe("平台未能及时响应。请稍后重试。");
    // An injected 503 (the platform answered, with an error) is not a timeout.
    for (const status of [502, 503]) {
      expect(errorMessage(err(status), en)).toBe("The platform is unavailable right now (it answered with an error). Try again in a moment.");
      expect(errorMessage(err(status), en)).not.toMatch(/in time/);
    }
    expect(errorMessage(new ApiError({ status: 502, code: "network_error", message: "x" }), en)).toMatch(/cannot reach the platform/);
    expect(errorMessage(new ApiError({ status: 503, code: "unavailable", message: "x" }), en)).toMatch(/console's server is unavailable/);
    expect(errorMessage(err(503), zh)).toBe("平台暂时不可用（返回了错误）。请稍后重试。");
    expect(errorMessage(err(404), en)).toBe("Not found.");
  });

  it("passes the platform's message for other failures and never shows internals of unknown errors", () => {
    expect(errorMessage(err(422, "email is invalid"), en)).toBe("The request failed: email is invalid");
    expect(errorMessage(new Error("TypeError at line 3"), en)).toBe("This page could not be shown. Your data is unchanged.");
  });
});

describe("itemFailureReason", () => {
  it("adds what was not found to a 404, and is errorMessage otherwise", () => {
    expect(itemFailureReason(err(404, "customer 123 not found"), en)).toBe("Not found. customer 123 not found");
    expect(itemFailureReason(err(503), en)).toBe(errorMessage(err(503), en));
    expect(itemFailureReason(undefined, en)).toBe(errorMessage(undefined, en));
  });
});
