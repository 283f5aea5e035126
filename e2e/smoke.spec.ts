import { expect, test } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";

test("the sandbox admin page opens in Chromium", async ({ page }) => {
  await page.goto(`${e2eUrls.alpha}/`);
  await expect(page).toHaveTitle(/Platform Sandbox/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/alpha/i);
});

test("the app's health page answers with the baseline security headers", async ({ page }) => {
  const response = await page.goto(`${e2eUrls.app}/health`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("health-status")).toHaveText("status: ok");
  const headers = response!.headers();
  // Sign-in hardening: a per-request nonce with 'strict-dynamic' for scripts, no plugins, no <base>; framing as before.
  expect(headers["content-security-policy"]).toMatch(
    new RegExp(`^script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'; frame-ancestors 'self' ${e2eUrls.alpha} ${e2eUrls.beta}; object-src 'none'; base-uri 'none'$`),
  );
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBeUndefined();
});

test("the sandbox admin can frame the app and another site cannot", async ({ page }) => {
  // A page of a site that is not a platform origin, served by Playwright itself.
  await page.route("http://not-the-platform.test/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>elsewhere</title><body></body>" }),
  );
  const framedBy = async (origin: string) => {
    await page.goto(`${origin}/health`);
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      frame.id = "app";
      document.body.appendChild(frame);
    }, `${e2eUrls.app}/health`);
    const frame = page.frameLocator("#app");
    return frame
      .getByTestId("health-status")
      .waitFor({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
  };
  expect(await framedBy(e2eUrls.alpha)).toBe(true);
  expect(await framedBy("http://not-the-platform.test")).toBe(false);
});
