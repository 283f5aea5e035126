import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../../scripts/testing/browser";

/**
 * An HTTP proxy that removes `Set-Cookie` from the app's responses to requests made inside a frame:
 * a browser launched through it behaves as one that refuses the app's cookies in the admin's iframe.
 */
export async function startCookieStrippingProxy(appOrigin: string): Promise<{ url: string; stripped: string[]; close(): Promise<void> }> {
  const stripped: string[] = [];
  const framedDocuments = new Set<string>();
  const server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers };
      // a framed navigation, or a request of a document that was loaded in the frame
      const framed = req.headers["sec-fetch-dest"] === "iframe" || framedDocuments.has(String(req.headers.referer ?? ""));
      if (req.headers["sec-fetch-dest"] === "iframe") framedDocuments.add(target.toString());
      if (target.origin === appOrigin && framed && headers["set-cookie"]) {
        stripped.push(...headers["set-cookie"].map((c) => c.split("=")[0]!));
        delete headers["set-cookie"];
      }
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stripped,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs `body` in a Chromium (the one the suite uses) whose traffic to the app goes through the
 * cookie-stripping proxy: a browser that refuses the app's cookies in the admin's iframe. The
 * browser and the proxy are closed afterwards, whatever `body` did.
 */
export async function inCookieRefusingBrowser(
  appOrigin: string,
  body: (browser: { context: BrowserContext; page: Page; stripped: string[] }) => Promise<void>,
): Promise<void> {
  const proxy = await startCookieStrippingProxy(appOrigin);
  const browser = await chromium.launch({
    ...chromiumLaunchOptions(),
    proxy: { server: proxy.url, bypass: "<-loopback>" },
  });
  try {
    const context = await browser.newContext();
    await body({ context, page: await context.newPage(), stripped: proxy.stripped });
    await context.close();
  } finally {
    await browser.close();
    await proxy.close();
  }
}
