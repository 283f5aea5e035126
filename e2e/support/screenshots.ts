import { test, type Page } from "@playwright/test";

/** A full-page screenshot of the running test, kept in its output folder as `name`.png and attached to the report. */
export async function attachScreenshot(page: Page, name: string) {
  const info = test.info();
  await info.attach(name, { body: await page.screenshot({ fullPage: true, path: info.outputPath(`${name}.png`) }), contentType: "image/png" });
}
