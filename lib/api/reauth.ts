/**
 * Following the re-authorization redirect of §5.2.9 in the browser. The proxy answers
 * `401 {error:{code:"reauth_required", redirect}}`; the console goes there (inside the frame too),
 * with `returnTo` set to the page the user is on. It prompts instead of navigating when leaving
 * would lose unsaved work, or when it already navigated moments ago (a loop: the authorization
 * is not sticking, e.g. the installation itself needs re-authorizing by an admin).
 */

export const REAUTH_GUARD_KEY = "ec.reauth.at";
/** Two redirects within this window are a loop. */
export const REAUTH_LOOP_WINDOW_MS = 15_000;

export type ReauthPrompt = { redirect: string; reason: "unsaved" | "loop" };

type Listener = (prompt: ReauthPrompt | null) => void;
let current: ReauthPrompt | null = null;
const listeners = new Set<Listener>();
const unsavedGuards = new Set<() => boolean>();

/** The prompt the shell shows, as an external store for `useSyncExternalStore`. */
export const reauthPrompt = {
  get: (): ReauthPrompt | null => current,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(prompt: ReauthPrompt | null): void {
    current = prompt;
    for (const l of listeners) l(prompt);
  },
};

/** Forms with unsaved changes register here; a re-authorization then asks before leaving. */
export function registerUnsavedGuard(isDirty: () => boolean): () => void {
  unsavedGuards.add(isDirty);
  return () => unsavedGuards.delete(isDirty);
}

export function hasUnsavedChanges(): boolean {
  for (const dirty of unsavedGuards) if (dirty()) return true;
  return false;
}

/**
 * The redirect as a same-origin path with `returnTo` = the current page. Anything that is not a
 * path of this origin is refused (undefined): a response never sends the frame elsewhere.
 */
export function reauthTarget(redirect: string, current: { origin: string; pathname: string; search: string }): string | undefined {
  if (!redirect.startsWith("/") || redirect.startsWith("//") || redirect.includes("\\")) return undefined;
  let url: URL;
  try {
    url = new URL(redirect, current.origin);
  } catch {
    return undefined;
  }
  if (url.origin !== current.origin) return undefined;
  if (!url.searchParams.has("returnTo") && !current.pathname.startsWith("/api/")) {
    url.searchParams.set("returnTo", `${current.pathname}${current.search}`);
  }
  return `${url.pathname}${url.search}`;
}

export type ReauthDeps = {
  location: { origin: string; pathname: string; search: string; assign(url: string): void };
  storage?: Pick<Storage, "getItem" | "setItem"> | undefined;
  now?: () => number;
  unsaved?: () => boolean;
};

let leaving = false;

/** Test hook: forget that this page already left for authorization. */
export function resetReauthNavigation(): void {
  leaving = false;
}

/**
 * Navigates to authorization, or raises the shell's prompt; says which it did. Several queries
 * failing at once lead to one navigation (the others see it is under way).
 */
export function followReauth(redirect: string, deps: ReauthDeps): "navigated" | "prompted" | "refused" {
  const target = reauthTarget(redirect, deps.location);
  if (!target) return "refused";
  if (leaving) return "navigated";
  const now = (deps.now ?? Date.now)();
  let last = Number.NaN;
  try {
    last = Number(deps.storage?.getItem(REAUTH_GUARD_KEY));
  } catch {
    // Storage refused (privacy settings): no loop guard beyond this page.
  }
  const unsaved = (deps.unsaved ?? hasUnsavedChanges)();
  if (unsaved || (Number.isFinite(last) && now - last < REAUTH_LOOP_WINDOW_MS)) {
    reauthPrompt.set({ redirect: target, reason: unsaved ? "unsaved" : "loop" });
    return "prompted";
  }
  try {
    deps.storage?.setItem(REAUTH_GUARD_KEY, String(now));
  } catch {
    // as above
  }
  leaving = true;
  deps.location.assign(target);
  return "navigated";
}
