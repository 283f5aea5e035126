import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/api-error";
import { translate, type MessageKey, type TranslateValues } from "@/lib/i18n/messages";
import { errorMessage, itemFailureReason } from "./error-message";

const en = (key: MessageKey, values?: TranslateValues) => translate("en", key, values);
const zh = (key: MessageKey, values?: TranslateValues) => translate("zh-CN", key, values);
const err = (status: number, message = "boom") => new ApiError({ status, code: `http_${status}`, message });

describe("errorMessage", () => {
  it("names known kinds of failure in the user's language", () => {
    expect(errorMessage(err(0), en)).toMatch(/cannot reach its server/);
    expect(errorMessage(err(429), en)).toMatch(/too many requests/);
    for (const status of [502, 503, 504]) expect(errorMessage(err(status), en)).toMatch(/did not answer in time/);
    expect(errorMessage(err(504), zh)).toBe("平台未能及时响应。请稍后重试。");
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
