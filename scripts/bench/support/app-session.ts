import { sandboxControl } from "../../../lib/platform/testing/sandbox-control";

/**
 * A signed-in staff member of the app under `next start`, for the benchmarks: the marketplace install
 * of §5.2.1 through the sandbox's test shortcuts (`/__sandbox/cloudtokens` for the entry,
 * `/__sandbox/authorize` past the login and consent), as lib/proxy/proxy.app.integration.test.ts
 * does it in process. Answers the headers the console's browser sends with every API call: the
 * session cookie and `X-Open-App-Id`.
 */

/** `app`: where the app listens (its APP_URL may name another host for the same server, e.g. localhost). */
export async function signIn(app: string, sandbox: string, environment = "alpha"): Promise<Record<string, string>> {
  const cookies = new Map<string, string>();
  const get = async (url: string, headers: Record<string, string> = {}, init: { method?: string; body?: string } = {}) => {
    // The app's own URLs (its APP_URL's host may differ) are sent where it listens.
    const target = new URL(url, app);
    const at = `${app}${target.pathname}${target.search}`;
    const res = await fetch(at, { ...init, headers: { ...headers, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") }, redirect: "manual" });
    for (const header of res.headers.getSetCookie()) {
      const pair = header.split(";")[0]!;
      cookies.set(pair.slice(0, pair.indexOf("=")).trim(), pair.slice(pair.indexOf("=") + 1).trim());
    }
    return res;
  };
  const control = sandboxControl(sandbox);
  const { getOpenAppIdToken } = await control<{ getOpenAppIdToken: string }>("/cloudtokens", { environment });
  const entry = await get(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${encodeURIComponent(getOpenAppIdToken)}`, {
    referer: `${sandbox}/application/mktapp/index.html`,
  });
  const location = entry.headers.get("location");
  if (!location) throw new Error(`the install entry did not redirect to authorize (HTTP ${entry.status}): ${(await entry.text()).slice(0, 300)}`);
  const authorize = new URL(location);
  const { callbackUrl } = await control<{ callbackUrl: string }>("/authorize", {
    environment,
    redirect_uri: authorize.searchParams.get("redirect_uri"),
    state: authorize.searchParams.get("state"),
    install: true,
  });
  // The return's GET answers a page that posts the return (same-origin, with the flow cookie); the
  // code is exchanged on that post only (docs/decisions/sign-in-hardening.md).
  const returnPage = await (await get(callbackUrl)).text();
  const fields = [...returnPage.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]);
  const done = await get("/api/auth/callback", { origin: new URL(callbackUrl).origin, "content-type": "application/x-www-form-urlencoded" }, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
  });
  const page = await done.text();
  // The completion page hands the browser its environment (and the fallback token) as JSON.
  const data = /id="ec-data"[^>]*>([^<]*)</.exec(page);
  if (done.status !== 200 || !data) throw new Error(`the install did not complete (HTTP ${done.status})`);
  const { openAppId } = JSON.parse(data[1]!) as { openAppId: string };
  return { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "), "x-open-app-id": openAppId, "x-engage-request": "1", accept: "application/json" };
}
