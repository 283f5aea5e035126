import { expect, test, type APIRequestContext } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { resetSandbox } from "./support/sandbox-api";
import { ALPHA, installAlpha } from "./support/sandbox-login";

/**
 * Webhooks end to end (§5.5, §6): the sandbox's sender signs a change (secret mode, the dev default),
 * the app's production build verifies and stores it, and the Activity page shows it — and shows the
 * next one without a reload.
 */

const activity = `${e2eUrls.app}/activity?openAppId=${ALPHA.openAppId}`;

async function sendChange(request: APIRequestContext, change: Record<string, unknown>): Promise<string> {
  const res = await request.post(`${ALPHA.origin}/__sandbox/webhooks/send`, { data: { environment: "alpha", ...change } });
  expect(res.status()).toBe(202);
  const { queued } = (await res.json()) as { queued: string[] };
  expect(queued).toHaveLength(1);
  return queued[0]!;
}

async function expectDelivered(request: APIRequestContext, id: string) {
  await expect
    .poll(async () => {
      const { deliveries } = (await (await request.get(`${ALPHA.origin}/__sandbox/webhooks/deliveries`)).json()) as { deliveries: Array<{ id: string; status: string }> };
      return deliveries.find((d) => d.id === id)?.status;
    })
    .toBe("delivered");
}

test.describe.serial("webhooks", () => {
  test.beforeAll(async ({ request }) => {
    await resetSandbox(request);
  });

  test("a signed change from the sandbox appears on the Activity page with a link, and the next one arrives live", async ({ page, request }) => {
    await installAlpha(page);
    const first = await sendChange(request, { resource: "customer", action: "updated", id: "9007199254740993123", data: { name: "Li  Na 李娜" } });
    await expectDelivered(request, first);

    await page.goto(activity);
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    // Other specs' changes reach the app's Activity too (their webhooks): look at this spec's own rows.
    const rows = page.getByRole("row");
    await expect(rows.filter({ hasText: "customer.updated" }).filter({ hasText: "9007199254740993123" })).toHaveCount(1);
    const link = page.getByRole("link", { name: "customer 9007199254740993123" });
    await expect(link).toHaveAttribute("href", `/customers/9007199254740993123?openAppId=${ALPHA.openAppId}`);
    await expectAccessible(page);

    const second = await sendChange(request, { resource: "order", action: "cancelled", id: "SO20261122001" });
    await expectDelivered(request, second);
    // No reload: the page polls /api/activity and re-renders.
    await expect(rows.filter({ hasText: "order.cancelled" }).filter({ hasText: "SO20261122001" })).toHaveCount(1, { timeout: 30_000 });
    await expect(page.getByRole("status").filter({ hasText: "1 new delivery received." })).toBeAttached();

    // A forged, unsigned delivery for the same tenant is refused and never shown.
    const forged = await request.post(`${e2eUrls.app}/api/webhooks/platform`, {
      data: { deliveryId: "forged-1", event: "customer.deleted", openAppId: ALPHA.openAppId, tenantId: 80000000001, resourceId: "4242424242" },
    });
    expect(forged.status()).toBe(401);
    await page.reload();
    await expect(rows.filter({ hasText: "order.cancelled" }).filter({ hasText: "SO20261122001" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "4242424242" })).toHaveCount(0);

    // The platform's language (?lang=) gives the page in Simplified Chinese.
    await page.goto(`${activity}&lang=zh-CN`);
    await expect(page.getByRole("heading", { level: 1, name: "动态" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "接收时间" })).toBeVisible();
  });
});
