/**
 * Toasts as a tiny external store, so that code outside React (the QueryClient's mutation cache)
 * can raise them and the shell's <Toaster> shows them (`useSyncExternalStore`).
 */
export type ToastTone = "success" | "error" | "info";
export type Toast = { id: number; tone: ToastTone; message: string };

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const toastStore = {
  get: (): readonly Toast[] => toasts,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Shows a toast; errors stay until dismissed, others leave after `ttlMs`. */
  show(tone: ToastTone, message: string, ttlMs = tone === "error" ? 0 : 5000): number {
    const id = nextId++;
    // At most 4 at once: the oldest goes first.
    toasts = [...toasts, { id, tone, message }].slice(-4);
    emit();
    if (ttlMs > 0) setTimeout(() => toastStore.dismiss(id), ttlMs);
    return id;
  },
  dismiss(id: number): void {
    const before = toasts.length;
    toasts = toasts.filter((t) => t.id !== id);
    if (toasts.length !== before) emit();
  },
};
