import { isRefusal, PlatformError } from "@/lib/platform/errors";

export type LookupFailure = { status: number; title: string; detail: string };

function originOf(url: string | undefined | null): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why the environment lookup of an install (§4.7 cloudinfo, §5.4.1) failed, named for the person
 * who reads the page: the one-time token is known only to the platform that issued it, so a lookup
 * sent elsewhere (the app's `PLATFORM_EXTENSION_URL` pointing at another platform than the admin
 * the install came from: moved sandbox ports, a second sandbox) is refused as "unknown", and that
 * is not an expired link. Used or expired tokens keep their own sentence; an unreachable lookup
 * service names the address tried. The platform's own words are added (never the token).
 */
export function installLookupFailure(error: unknown, { extensionUrl, referer }: { extensionUrl: string; referer: string | null }): LookupFailure {
  const lookupOrigin = originOf(extensionUrl) ?? extensionUrl;
  const fromOrigin = originOf(referer);
  const said = error instanceof PlatformError ? error.message : "";
  if (!isRefusal(error)) {
    return {
      status: 502,
      title: "The platform's environment lookup is not answering",
      detail: `The app asked ${lookupOrigin} (its PLATFORM_EXTENSION_URL) and got no usable answer${said ? `: ${said}` : ""}. Check that the platform runs there; with npm run dev, SANDBOX_ALPHA_PORT moves it and the app follows.`,
    };
  }
  const text = `${error.code} ${said}`.toLowerCase();
  if (fromOrigin && fromOrigin !== lookupOrigin && !/expired|already.*used|used/.test(text)) {
    return {
      status: 400,
      title: "This app looks environments up at another platform",
      detail: `The install came from ${fromOrigin}, but the app asked ${lookupOrigin} (its PLATFORM_EXTENSION_URL) about it, which does not know this install (${said || error.code}). Point PLATFORM_EXTENSION_URL at the platform you install from (with npm run dev: start it with the same SANDBOX_ALPHA_PORT), then install again.`,
    };
  }
  if (/expired/.test(text)) {
    return { status: 400, title: "This install link has expired", detail: `The platform said: ${said || error.code}. An install link is valid for 10 minutes. Install again from the marketplace.` };
  }
  if (/used/.test(text)) {
    return { status: 400, title: "This install link was already used", detail: `The platform said: ${said || error.code}. An install link works once. Install again from the marketplace.` };
  }
  return {
    status: 400,
    title: "The platform refused the environment lookup",
    detail: `${lookupOrigin} refused this install's token: ${said || error.code}. An install link works once, for 10 minutes: install again from the marketplace; if it happens again, check that PLATFORM_EXTENSION_URL is the lookup service of the platform you install from.`,
  };
}
